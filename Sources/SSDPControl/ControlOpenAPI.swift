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

import SSDPSimulator

/// The control API's OpenAPI 3.1 document, `GET /openapi.json`: every path and method `ControlRoute` lists
/// and every status each answers (a test holds the server to it, both ways).
enum ControlOpenAPI {
    /// The journal's kinds as the document's enum lists them: from `JournalEntry.Kind`, not a copy.
    private static let journalKinds = JournalEntry.Kind.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")

    static let document = """
        {
          "openapi": "3.1.0",
          "info": {
            "title": "ssdp-sim control API",
            "version": "1",
            "description": "Control the simulated devices of `ssdp-sim serve --control` while they run, and query and wait on the journal of what they did. See docs/control.md."
          },
          "security": [{}, {"ControlToken": []}],
          "paths": {
            "/health": {
              "get": {
                "summary": "Whether the simulator serves",
                "security": [{}],
                "responses": {
                  "200": {"description": "Serving", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "503": {"description": "Starting", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Health"}}}}
                }
              }
            },
            "/devices": {
              "get": {
                "summary": "Every device on the LAN (not those removed), in order",
                "responses": {
                  "200": {"description": "The devices", "content": {"application/json": {"schema": {"type": "object", "required": ["devices"], "properties": {"devices": {"type": "array", "items": {"$ref": "#/components/schemas/Device"}}}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              },
              "post": {
                "summary": "Add devices: a device file's JSON, an object with devices; they join the LAN and announce themselves",
                "requestBody": {
                  "required": true,
                  "content": {"application/json": {"schema": {"type": "object", "required": ["devices"], "properties": {"devices": {"type": "array", "minItems": 1, "items": {"type": "object"}}}}}}
                },
                "responses": {
                  "201": {"description": "The devices added", "content": {"application/json": {"schema": {"type": "object", "required": ["devices"], "properties": {"devices": {"type": "array", "items": {"$ref": "#/components/schemas/Device"}}}}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "409": {"$ref": "#/components/responses/Error"},
                  "413": {"$ref": "#/components/responses/Error"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/devices/{id}": {
              "parameters": [{"$ref": "#/components/parameters/DeviceID"}],
              "get": {
                "summary": "One device",
                "responses": {
                  "200": {"description": "The device", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Device"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Error"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              },
              "patch": {
                "summary": "Change the device while it runs: the device file's fields that can change, and its live state. A new friendlyName bumps CONFIGID and sends ssdp:update.",
                "requestBody": {
                  "required": true,
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/DeviceChange"}}}
                },
                "responses": {
                  "200": {"description": "The device after", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Device"}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Error"},
                  "409": {"$ref": "#/components/responses/Error"},
                  "413": {"$ref": "#/components/responses/Error"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              },
              "delete": {
                "summary": "Take the device off the LAN: byebye first (unless byebye=false), then gone until POST /reset",
                "parameters": [{"name": "byebye", "in": "query", "schema": {"type": "string", "enum": ["true", "false"], "default": "true"}}],
                "responses": {
                  "200": {"description": "The device after (state removed)", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Device"}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Error"},
                  "409": {"$ref": "#/components/responses/Error"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/devices/{id}/actions/{action}": {
              "parameters": [
                {"$ref": "#/components/parameters/DeviceID"},
                {"name": "action", "in": "path", "required": true, "schema": {"type": "string", "enum": ["byebye", "vanish", "alive", "update", "reboot"]}}
              ],
              "post": {
                "summary": "Make the device say byebye, vanish, come back (alive), update, or reboot",
                "requestBody": {
                  "required": false,
                  "content": {"application/json": {"schema": {"type": "object", "additionalProperties": false, "properties": {"downFor": {"type": "number", "minimum": 0, "maximum": 3600, "default": 5, "description": "reboot only: seconds down"}, "newPort": {"type": "boolean", "default": false, "description": "reboot only: come back with the HTTP side on another port (and LOCATION with it)"}}}}}
                },
                "responses": {
                  "200": {"description": "The device after", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Device"}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "404": {"$ref": "#/components/responses/Error"},
                  "409": {"$ref": "#/components/responses/Error"},
                  "413": {"$ref": "#/components/responses/Error"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/network": {
              "get": {
                "summary": "The network faults on what the simulator sends and hears",
                "responses": {
                  "200": {"description": "The faults", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Network"}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              },
              "put": {
                "summary": "Replace the network faults, from the next datagram on ({} clears them)",
                "requestBody": {
                  "required": false,
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Network"}}}
                },
                "responses": {
                  "200": {"description": "The faults after", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Network"}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "413": {"$ref": "#/components/responses/Error"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/reset": {
              "post": {
                "summary": "Every device, its state and every fault back to the start; the journal emptied",
                "responses": {
                  "200": {"description": "The devices after", "content": {"application/json": {"schema": {"type": "object", "required": ["devices"], "properties": {"devices": {"type": "array", "items": {"$ref": "#/components/schemas/Device"}}}}}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/journal": {
              "get": {
                "summary": "The journal's entries that match, oldest first",
                "parameters": [
                  {"$ref": "#/components/parameters/Kind"}, {"$ref": "#/components/parameters/Device"},
                  {"$ref": "#/components/parameters/Since"}, {"$ref": "#/components/parameters/Fields"},
                  {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 1000}}
                ],
                "responses": {
                  "200": {"description": "A page of entries", "content": {"application/json": {"schema": {"type": "object", "required": ["entries", "dropped", "next"], "properties": {"entries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}}, "dropped": {"type": "integer"}, "next": {"type": "integer"}}}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              },
              "delete": {
                "summary": "Forget every entry (sequence numbers go on)",
                "responses": {
                  "204": {"description": "Cleared"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            },
            "/journal/wait": {
              "get": {
                "summary": "Wait until count entries match, or the timeout",
                "parameters": [
                  {"$ref": "#/components/parameters/Kind"}, {"$ref": "#/components/parameters/Device"},
                  {"$ref": "#/components/parameters/Since"}, {"$ref": "#/components/parameters/Fields"},
                  {"name": "count", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 1}},
                  {"name": "timeout", "in": "query", "schema": {"type": "number", "minimum": 0, "maximum": 300, "default": 10}}
                ],
                "responses": {
                  "200": {"description": "Enough entries match", "content": {"application/json": {"schema": {"type": "object", "required": ["entries", "next"], "properties": {"entries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}}, "next": {"type": "integer"}}}}}},
                  "400": {"$ref": "#/components/responses/Error"},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"},
                  "408": {"description": "Timed out: the matches so far and the near misses", "content": {"application/json": {"schema": {"type": "object", "required": ["error", "entries", "nearMisses"], "properties": {"error": {"type": "string"}, "entries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}}, "nearMisses": {"type": "array", "items": {"$ref": "#/components/schemas/NearMiss"}}}}}}},
                  "503": {"$ref": "#/components/responses/Error"}
                }
              }
            },
            "/openapi.json": {
              "get": {
                "summary": "This document",
                "responses": {
                  "200": {"description": "The OpenAPI document", "content": {"application/json": {}}},
                  "401": {"$ref": "#/components/responses/Unauthorized"},
                  "403": {"$ref": "#/components/responses/Forbidden"}
                }
              }
            }
          },
          "components": {
            "parameters": {
              "DeviceID": {"name": "id", "in": "path", "required": true, "description": "The device's number (from 1) or UDN", "schema": {"type": "string"}},
              "Kind": {"name": "kind", "in": "query", "schema": {"type": "string", "enum": [\(journalKinds)]}},
              "Device": {"name": "device", "in": "query", "description": "A device's number or UDN", "schema": {"type": "string"}},
              "Since": {"name": "since", "in": "query", "description": "Only entries with a greater seq", "schema": {"type": "integer", "minimum": 0, "default": 0}},
              "Fields": {"name": "fields", "in": "query", "style": "form", "explode": true, "description": "Any other parameter NAME=VALUE is a condition on the event's field NAME (dotted for a member: arguments.NewExternalPort), compared as text; field:NAME for a field named like a parameter above; a NAME no entry has is 400", "schema": {"type": "object", "additionalProperties": {"type": "string"}}}
            },
            "responses": {
              "Error": {"description": "An error", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Forbidden": {"description": "A web page's Origin not allowed, or a DNS name as Host on a loopback server", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
              "Unauthorized": {"description": "serve was given a token (--control-token-file) and the request did not carry it as Authorization: Bearer TOKEN", "headers": {"WWW-Authenticate": {"schema": {"type": "string", "const": "Bearer"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
            },
            "securitySchemes": {
              "ControlToken": {"type": "http", "scheme": "bearer", "description": "Only when serve was given a token; GET /health never needs it"}
            },
            "schemas": {
              "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}, "path": {"type": "string", "description": "The JSON path of the body's bad field"}}},
              "Health": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string", "enum": ["serving", "starting"]}, "devices": {"type": "integer"}}},
              "Device": {
                "type": "object",
                "required": ["number", "udn", "friendlyName", "deviceType", "address", "location", "state", "bootId", "configId", "maxAge", "behaviour", "httpFaults", "advertisements"],
                "properties": {
                  "number": {"type": "integer"}, "udn": {"type": "string"}, "friendlyName": {"type": "string"},
                  "deviceType": {"type": "string"}, "profile": {"type": "string"}, "address": {"type": "string"},
                  "location": {"type": "string"}, "state": {"type": "string", "enum": ["alive", "gone", "rebooting", "removed"]},
                  "bootId": {"type": "integer"}, "configId": {"type": "integer"}, "maxAge": {"type": "integer"},
                  "behaviour": {"type": "object", "description": "As a device file writes it"},
                  "httpFaults": {"type": "object", "description": "As a device file writes them"},
                  "advertisements": {"type": "array", "items": {"type": "object", "required": ["nt", "usn"], "properties": {"nt": {"type": "string"}, "usn": {"type": "string"}}}}
                }
              },
              "DeviceChange": {
                "type": "object",
                "additionalProperties": false,
                "properties": {
                  "friendlyName": {"type": "string"}, "maxAge": {"type": "integer", "minimum": 1},
                  "behaviour": {"type": "object", "description": "As in a device file; the fields given replace those parts"},
                  "httpFaults": {"type": "object", "description": "As in a device file; the fields given replace those parts"},
                  "actions": {"type": "array", "items": {"type": "object"}, "description": "As in a device file; replaces the list"},
                  "state": {"type": "object", "additionalProperties": {"type": ["string", "integer", "boolean"]}, "description": "Live state by name: a state variable of one of the device's services (ExternalIPAddress, ConnectionStatus, Volume, TransportState), a Roku's powerMode and activeApp (and a Roku TV's tvChannel), or a Hue bridge's linkButton. Subscribers hear the change."}
                }
              },
              "Network": {
                "type": "object",
                "additionalProperties": false,
                "description": "Each fault a probability, or {probability, after, times}; latency seconds or {min, max, after, times}",
                "properties": {
                  "latency": {}, "loss": {}, "answerLoss": {}, "duplicate": {}, "reorder": {},
                  "reorderDelay": {"type": "number", "minimum": 0, "maximum": 3600}
                }
              },
              "Entry": {
                "type": "object",
                "required": ["seq", "time", "kind", "fields"],
                "properties": {
                  "seq": {"type": "integer"}, "time": {"type": "number", "description": "Seconds since the journal started"},
                  "kind": {"type": "string"}, "device": {"type": "integer"},
                  "fields": {"type": "object", "description": "The event as serve --json prints it"}
                }
              },
              "NearMiss": {
                "type": "object",
                "required": ["entry", "mismatches"],
                "properties": {
                  "entry": {"$ref": "#/components/schemas/Entry"},
                  "mismatches": {"type": "array", "items": {"type": "object", "required": ["field", "expected", "actual"], "properties": {"field": {"type": "string"}, "expected": {"type": "string"}, "actual": {"type": ["string", "null"]}}}}
                }
              }
            }
          }
        }

        """
}
