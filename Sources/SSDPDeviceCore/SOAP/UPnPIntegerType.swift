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

/// The values each of UPnP's integer data types holds (UDA 1.1 §2.5, the `dataType` of a state variable):
/// what an in-argument of that type may be before a device stores it or counts with it. A value outside is
/// refused as Invalid Args (402), as a port of 70000 or a lease of 2^63 cannot be the argument's.
enum UPnPIntegerType {
    /// The range of `dataType`, or `nil` when it is not an integer type. `ui8` holds more than `Int` does;
    /// this reads no integer above `Int.max`, so a `ui8` stops there.
    static func range(of dataType: String) -> ClosedRange<Int>? {
        switch dataType {
        case "ui1": 0...Int(UInt8.max)
        case "ui2": 0...Int(UInt16.max)
        case "ui4": 0...Int(UInt32.max)
        case "ui8": 0...Int.max
        case "i1": Int(Int8.min)...Int(Int8.max)
        case "i2": Int(Int16.min)...Int(Int16.max)
        case "i4", "int": Int(Int32.min)...Int(Int32.max)
        case "i8": Int.min...Int.max
        default: nil
        }
    }

    /// The integer `text` spells, `+5`, `5` or `-5` (surrounding spaces allowed, as miniupnpd's `atoi`
    /// takes them), when it is one within `range`; `nil` for anything else (`++5`, `+-5`, `5x`), however
    /// many digits it has.
    static func value(of text: String, in range: ClosedRange<Int>) -> Int? {
        let trimmed = text.trimmingASCIIWhitespace
        let digits = trimmed.first == "+" || trimmed.first == "-" ? trimmed.dropFirst() : trimmed[...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let number = Int(trimmed.first == "+" ? String(digits) : trimmed), range.contains(number)
        else { return nil }
        return number
    }
}
