//===----------------------------------------------------------------------===//
//
// This source file is part of the ssdp-sim open source project
//
// Copyright (c) 2026 the ssdp-sim project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import SSDPCore
import SSDPDeviceCore

/// A Roku's ECP: the answers of `/query/device-info`, the installed channels (apps), and a Roku TV's
/// antenna channels.
public struct RokuConfiguration: Hashable, Sendable {
    /// The elements of `<device-info>`, in order, as a real Roku writes them. The values of `udn`,
    /// `friendly-device-name`, `user-device-name`, `uptime` and `power-mode` follow the running device.
    public var deviceInfo: [SSDPDeviceProperty]
    /// The installed channels, as `/query/apps` lists them and `/launch/{id}` finds them; a TV's inputs
    /// among them (`tvinput.dtv`, of type `tvin`).
    public var apps: [RokuApp]
    /// How `<device-info>`'s elements are indented: four spaces on Roku OS 9, none on 10 and later.
    public var deviceInfoIndent: String
    /// A Roku TV's antenna channels, as `/query/tv-channels` lists them; none on a player, which answers
    /// neither TV query.
    public var tvChannels: [RokuTVChannel]
    /// The power mode the PowerOff key puts it in: `Ready` on a player, `DisplayOff` on a TV.
    public var standbyPowerMode: String
    /// The power mode it starts in (`RokuECP.powerModes`): on, unless a recording showed otherwise.
    public var startingPowerMode = "PowerOn"
    /// The id of the channel in front when it starts; `nil`, the home screen, unless a recording showed one.
    public var startingAppID: String?
    /// A Roku TV's antenna channel tuned when it starts; `nil` for the first of `tvChannels`.
    public var startingTVChannel: String?

    /// An ECP with these `<device-info>` elements and channels, and for a TV its antenna channels.
    public init(
        deviceInfo: [SSDPDeviceProperty],
        apps: [RokuApp],
        deviceInfoIndent: String = "    ",
        tvChannels: [RokuTVChannel] = [],
        standbyPowerMode: String = "Ready"
    ) {
        self.deviceInfo = deviceInfo
        self.apps = apps
        self.deviceInfoIndent = deviceInfoIndent
        self.tvChannels = tvChannels
        self.standbyPowerMode = standbyPowerMode
    }
}

/// A Roku TV's antenna channel, and the programme on it.
public struct RokuTVChannel: Hashable, Sendable {
    /// Its number, major and minor (`4.1`), as `launch/tvinput.dtv?ch=4.1` tunes it.
    public var number: String
    /// Its name (the station's call sign).
    public var name: String
    /// The title of the programme on it now.
    public var programTitle: String

    /// A digital antenna channel.
    public init(number: String, name: String, programTitle: String) {
        self.number = number
        self.name = name
        self.programTitle = programTitle
    }
}

/// A channel installed on a Roku.
public struct RokuApp: Hashable, Sendable {
    /// The channel's id (`12` for Netflix), as `/launch/{id}` takes it.
    public var id: String
    /// The channel's name, as the Roku shows it.
    public var name: String
    /// The channel's version, as `/query/apps` reports it.
    public var version: String
    /// `appl` for a channel, `tvin` for a TV's input.
    public var type: String

    /// A channel (or, of type `tvin`, an input) with this id, name and version.
    public init(id: String, name: String, version: String, type: String = "appl") {
        self.id = id
        self.name = name
        self.version = version
        self.type = type
    }
}
