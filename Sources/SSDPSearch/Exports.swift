// Users import SSDPSearch alone and get the vocabulary types (SSDPService, the configuration, …) with it.
@_exported import SSDPCore
