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

import Foundation
import SSDPCore

/// A file a device serves as it is, with its content type: MiniDLNA's icons.
public struct ServedFile: Hashable, Sendable {
    /// The Content-Type it is served with, `image/png`.
    public var contentType: String
    /// The file's bytes.
    public var bytes: [UInt8]
    /// Its answer's headers, where the server writes them otherwise than its other answers (a template as
    /// `DeviceWeb.httpHeaders` is); `nil` for the device's (its documents' in `httpHeadersByKind`, else
    /// `httpHeaders`).
    public var httpHeaders: [SSDPHeaderField]?

    /// A file of `contentType`, answered with the device's headers unless `httpHeaders` lays them out.
    public init(contentType: String, bytes: [UInt8], httpHeaders: [SSDPHeaderField]? = nil) {
        self.contentType = contentType
        self.bytes = bytes
        self.httpHeaders = httpHeaders
    }
}

extension ServedFile {
    /// The icons the dlna-server profile lists where MiniDLNA lists its own (`/icons/sm.png`, …): ssdp-sim's
    /// own drawing (a ring and a dot), 48 and 120 pixels square, as PNG and as JPEG, 24-bit colour as the
    /// description says. Made with Python's zlib (PNG) and libjpeg-turbo's cjpeg -quality 60 (JPEG).
    static let mediaServerIcons: [String: ServedFile] = [
        "/icons/sm.png": ServedFile(
            contentType: "image/png",
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAIAAADYYG7QAAAAnUlEQVR42u3Y0RGAIAwD0G7iiA7uEHEDT9oUgibnn6jPOy3QOM5L6giD"
                + "DDJIFoTHzANhML0gpNICQjlMEEjhgEBNFYSGfAiUeEDdFBVNx7XRV4jngSiFdAzEqryJ+0T9zd6fnQFKDGCCWocZ9AuQ3Eet+NuvKYxy"
                + "U8dmk+ua5YfcAs1r6k23QYobRcWttGKzQbQdo9iwco/RIIN2B90B2K+w/rC5LgAAAABJRU5ErkJggg=="
        ),
        "/icons/lrg.png": ServedFile(
            contentType: "image/png",
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAHgAAAB4CAIAAAC2BqGFAAAB0UlEQVR42u3d0XHEIAwFQHWSElN4iiA1JJNID7GMvm3Yse/GQkB9fH6J"
                + "higEoEEL0KBBUwANWoAGDZoCaNACNGjQ4nXo88MG+h9xb0GvZb6x4rWYOIq7dvvmiNdTyoPW9RTxIHc9SDzCXS8rd1rX48pt1kW5x7oQ"
                + "93AX5R7rotxjDfpa6LOipUOfRS0X+qxridBnaQP9JPRZ3V6EHr/pJHTIIMOtK1Z52SRvInTmS7YKOvnraRI6P8OQ08MU6CvS4jPQF81u"
                + "JHR1HvqRkr5h6OtKSrqh73qcE/pcjzzO492+D3r8u/Ey6L+6Y37Pfw8dmC3Kf6gr/HHOzPNtgw65LGjQf9HRtCuDBj3xgkcN4QLo5OuD"
                + "Bu2nw58haNA+WECDllSSJk2Glvg3lWUqy+SscoNoaAU0SsKUhM1ZJ3RV2W5TJxWi3wBtaYXFQnG9svztEmgLOi1RzvrnsOj+KmjbSIBe"
                + "B22rH5tXRXw92Y6tKR9gg8GmrAvom6FtAmtb47G0uI26m2Z5bD3fNG/pMIVFhykkW7cN34E3S6ETuEeG7FCy7dDN4uPDdHDkY9BX16le"
                + "Cd2wWAj05gANGrQADRo0AtCgBWjQoCmABi1AgwZNoSO+Aenbi8NYZk0+AAAAAElFTkSuQmCC"
        ),
        "/icons/sm.jpg": ServedFile(
            contentType: "image/jpeg",
            base64:
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNS"
                + "Mj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P"
                + "T0//wAARCAAwADADASIAAhEBAxEB/8QAGAAAAwEBAAAAAAAAAAAAAAAAAAYHBAX/xAAiEAACAQQCAwADAAAAAAAAAAABAwIABBEhMVEF"
                + "BhITIoH/xAAXAQEBAQEAAAAAAAAAAAAAAAAEBQMG/8QAJREAAQMDAgYDAAAAAAAAAAAAAwABAhESMSEyBAUUFUHwEyLB/9oADAMBAAIR"
                + "AxEAPwDnUUU4eseuJbbQv/IQ/J97UqQIAGeT3nrjHeddMY0QxukowxuR6MldFld3MDO3tXtgDgyWsyGetUPsru2gJ3Fq9UCcCTFmIz1u"
                + "qo1qkLLHMgtceZTkAB/TQpqnrDEsgxcuJQkCD/RU3uUs26JfRxxdqpHRTh7P64lVtO/8fD8fxtqogkEZ5HWOuMdY2n1SCaJo3RRCDcb0"
                + "daLBMbnyFtbzJEGtjCRHOCQNVVHNghM3Nl8rXEykcZwAMmpXYOjbeQtriYJgpsZyA5wCDqqo5UHpmlsfpbImMhnGQRg1N5lujXCXwe2V"
                + "MpCtre99r8k5jHlaFky/Y/QUDxGI11zrjJ3Rc2976p5JLFvLEMIl+p+Q0DmMhvvnfORui2uL31TyTlsQWIYTH9h8hoHEonffG+cHdFzc"
                + "XvtfkkrWgrQsiP6j6CgeZSOuuNcYG6T9rvHxU99/VlpTzfVPqWwemDlS+lsiJROMZBGRUrv0xtvIXNvAkwU2UIk84BI3VUSqCEwSqPyt"
                + "cRGIznAAwKld+6Nz5C5uIAiDWynEHnBJO6Ny3dKmFrxmI1ys9OHrHsaVW0LDyE/x/GlNkSQRng9Y74x1jafRVIwYmjbJEGRxvVlXGqU9"
                + "ZW5cGLlzGcQQf4aFKUhYWlcFrjxGEQAP4KlaL27toGFvdPVAnJithiM96ofe3dzAQuLp7YA5EWMMhnvdTe2yxdol9ZHNuqaPZ/Y0ttp2"
                + "Hj5/k+9NbEkADPA7z3xjvOk+iiqQQxDG2KIQjkerr//Z"
        ),
        "/icons/lrg.jpg": ServedFile(
            contentType: "image/jpeg",
            base64:
                "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxOUlNS"
                + "Mj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P"
                + "T0//wAARCAB4AHgDASIAAhEBAxEB/8QAGQABAAMBAQAAAAAAAAAAAAAAAAUGBwME/8QANhAAAAYABAUBBQUJAAAAAAAAAAECAwQRBRIh"
                + "MQYTQVFhgRQVIjJxNGORoaIWNUJVYnSTstH/xAAaAQADAQEBAQAAAAAAAAAAAAAABAUDAQIG/8QAJhEAAgICAgEEAwADAAAAAAAAAAEC"
                + "AwQREjEhBRMiQTJRYXGBof/aAAwDAQACEQMRAD8AjgAB9WQgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACUwPBnsYkLQhwmmmytazK6u"
                + "6Ii67DzOcYR5S6PUYuT0jwxYsiY8TMVlbrh9EltrVn2LXcWqDwVueIyvBJY9NbMvrpXqLNh8GPh0RMaKjKhOpme6j7mfcekRrvUJyeq/"
                + "CKFeJFeZeSNj4DhMfNy4DJ5qvmFn/DNdDt7qw3+XxP8ACn/g9gBJ2zfltjKhFdIjZGA4TIy8yAyWW65ZZPxy1Ygp3BWx4dK8Gl/11si+"
                + "mleot4DSvJtr6keJUwl2jJpUWRDeNmUytpwuii31qy7lpuOI1bEIMfEYio0pGZCtSMt0n3I+4z3HMGeweQhC3CdacK0LIquqsjLpuK+N"
                + "mRu+L8MQux3X5XRFgAB0WAAAAAAAAO0SM7MltRmStx1RJLfTyddC3GoYfBj4dETGioyoTqZnuo+5n3FZ4FhfaJ5q+5SRH9DO/wBNeot4"
                + "ieoXOU/bXSKWJXqPJ/YABAcScQJw1BxopkqYovqTRdz89i9T8p11yslxiMzmoLbJt+QxGQS5DzbSDOiU4oklfbUeH39hPtPs/t7Ofvfw"
                + "7X8235jOJUqRMeN6U8t1w+qj21ui7FrsOIpw9Mjr5S8iMsx78I1tiQxJQa47zbqCOjU2olFfbQdBk0WVIhvE9FeW04XVJ763R9y02F64"
                + "b4gTiSCjSjJMxJfQnS7l57l6l4WyMGVS5R8o3qyVN6fhk+PNiEGPiMRUaUjMhWpGW6T7kfcekAkm4vaGGk1pmTS4zsOW7GeKnGlGk99f"
                + "JX0PccRcOOoX2eeSvuVEZ/Uyr9V+gp4+kx7fdrUiPbDhNxAAA2MwAAADTeHWPZ8BhozZrbz3VfN8VfnQkh48H/c0H+3b/wBSHsHy9r3N"
                + "t/stwWoo5yXkxozshZGaGkGtRFvRFegyqXJdmS3ZLx246o1Hvp4K+hbDR+Iud7hmez/Py9dvl/i3/psZkKnpkFxlL7EcyT2kSmB4M9jE"
                + "haEOE002VrWZXV3REXXYWv8AY7C+Ty80jNmvmZyzVW21V6X5Dgnle41cvPm5yuZmqs1Ft4qvWxYBhlZVvuuMXpI1oohwTa3szTHMGewe"
                + "QhC3CdacK0LIquqsjLpuPDEkuw5bUlk6caUSi318HXQ9heeNuV7jTzM+bnJ5eWqzUe/ir9aFAFHFsd1W5/4FL4KuzUTW4zyZMZqQgjJD"
                + "qCWkj3oyvUdBG8O873DD9o+fl6bfL/Dt/TQkhBnHjJr9FSL3FMjeImPaMBmIzZabz3V/L8VflQzIanjH7mnf27n+pjLBW9Nfwkv6IZi+"
                + "SAAApCYAAABpvDr/ALRgMNeXLTeSrv5fhv8AKxJCocCzftEA0/fJMi+hHf6a9Rbx83k1+3bJFimXKCZzkspkxnY6zMkOoNCjLejKtBlU"
                + "uM7DluxnipxpRpPfXyV9D3GsiA4k4fTiSDkxSJMxJfQnS7H57H6H43wchVS4y6Znk1Oa2u0VPA8ZeweQtaGydacKloM6uroyPpuLX+2O"
                + "F8nmZZGbNXLyFmqt96r1vwKNKiyIbxsymVtOF0UW+tWXctNxxFOzFqufN/8ABKF861xRKY5jL2MSELW2TTTZUhBHdXVmZ9dh4YkZ2ZLa"
                + "jMlbjqiSW+nk66FuEWLImPEzFZW64fRJba1Z9i13F64b4fThqCkyiJUxRfUmi7F57n6F55ddXjV8Y/6R2uud09sm4zKY0ZqOgzNDSCQk"
                + "z3oirUdAAQG9+Sr0RvET/s+AzF5c1t5Kuvm+G/zsZkLhx1N+zwCT98ozL6kVfqv0FPFz0+vjVt/ZMy5cp6/QAADwqAAAAdokl2HLaksn"
                + "TjSiUW+vg66HsNQw+dHxGImTFXmQrQyPdJ9jLuMpEpgeMvYPIWtDZOtOFS0GdXV0ZH03CWZje9Hce0M493tvT6NLAebD50fEYiZMVeZC"
                + "tDI90n2Mu49IhNOL0ymmmto5vx2JKCRIZbdQR2SXEkor76jw+4cJ9p9o9gZz9q+Havl2/ISQD1Gco9PRxxi+0c2I7EZBojsttIM7NLaS"
                + "SV99B0AB5b32eugPNiE6Ph0RUmUvKhOhEW6j7EXcMQnR8OiKkyl5UJ0Ii3UfYi7jPccxl7GJCFrbJppsqQgjurqzM+uwaxcWV0tv8TC6"
                + "5Vr+nhlyXZkt2S8duOqNR76eCvoWw4gAvpJLSJTe/IAAHTgAAAAAAAB2iypEN4nory2nC6pPfW6PuWmwtUHjXcsRi+SUx6aUZ/XW/QU8"
                + "Bjbj12/kjSFs4fizTY+PYTIzcueyWWr5h5PwzVY7e9cN/mET/Mn/AKMsAJv02H1JjCzJfaNNkY9hMfLzJ7J5rrlnn/HLdCCnca7Fh0Xy"
                + "an/XSiP6a36CngNK/T6o+X5PMsucuvB2lSpEx43pTy3XD6qPbW6LsWuw4gAdSSWkLN77AAA6cAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
                + "AAAAAP/Z"
        ),
    ]

    /// The icons the renderer profile lists where gmrender-resurrect lists its own
    /// (`/upnp/grender-64x64.png`, `…-128x128.png`): ssdp-sim's own drawing (a ring and a dot), 64 and 128
    /// pixels square, 24-bit colour as the description says, made with Python's zlib. Served with the
    /// device's document headers.
    static let rendererIcons: [String: ServedFile] = [
        "/upnp/grender-64x64.png": ServedFile(
            contentType: "image/png",
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAEAAAABACAIAAAAlC+aJAAAA+ElEQVR42u3a6w3DIAwE4Juny2XgDkM2QIo5P7kofwP3RWpqDFjNLwgg"
                + "gADk6/f8N3dRwD60KwYp0YkMJEanMJAe/ZCBOultBpRKbzCgVHQDA/T0YUORAR6/JQ7A9UN+PjgS01OmQJGqxjyXEeBRV5IBwenNkw4F"
                + "pKS3Tf0NELPIOgVQXj/32c0goL9+ysc3DcAqEHIAxCrNDghIzzUI4NZWEUAAAQTQ/0AGoH0pcXUxV72cbrOgab+knLCoV1+oAKB9a3FC"
                + "c7d9e33CBseELaYJm3yr+zZrMONTpMuOGngbDGGuPG7DZRwGuP7IWW4FtXTsUgAB2gNeLCOLxoQ3Jj0AAAAASUVORK5CYII=",
            httpHeaders: nil
        ),
        "/upnp/grender-128x128.png": ServedFile(
            contentType: "image/png",
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAIAAAACACAIAAABMXPacAAACZklEQVR42u3d0XEcMQyDYdbj5lJwimE6uLFjiQCon+P3E/Gt5+xdLVVN"
                + "SauIAAAAKAAAoAAAgAIAAAqAz/X15++HHwDmsv7+DwCa3CMk6oXcnSXqqdwNJerZ6E0Y6vHo5QxF9FqGInotQ5G+1qCIXstQpK81KNLX"
                + "GhTpaw2K9LUGRfRahkpJP3oxqQDrF3YSIOJPDsNFllVjDz5oK5N+Qu/I6gGib8c7LL60Dex4FJoK0DYVCbBvn4ikoyJ9bV/TAG1fAQCL"
                + "059vcA6go8oX4IX0JzsFIArgnfTH+r0O0OFlBPDa5T/TdXH5axu/CNCLSg8Q8WAr8Zeggi7/lE9fCODw/a8EEHZu9cznxkdbA6Rvb8kG"
                + "MNzJowFYkL6zgSOA85ZCAAC43KT53mZ3AOfLX7LCMICIDf4AvASw7AvA8GvACCDlNSMAAAAAAAAAAAAAAAAAgH/ErgJwK4J7QQBwOzoI"
                + "gAcyPJLkkSQA6QDNtpR9Bp7pN1sTAbhuIFzMMYBme/rj7wf8dA3aT7cA4BWlwwDNS3q8ppqSvhEAL2qfBGhGFSTOimBYx0mAZlwN84Je"
                + "B2hGloXOjGNo3zGAZmxl7txQBreeAWhGF2tHF/9+xQzv1gMwvr45wCH7AIdogyVHmBxshkN8LLriGCuL9jjIzaJPjjL0MuAwz9cZbmTF"
                + "gc4bD3TeZ3AvpYsAawyuRnQXYIHB7XyuA+QyzCQzBBBnMBbLHEAKw3Ag0wDODJIoNABuDMIQlAAODPL29QASCZ+ujQAGJAybdQQIfdC2"
                + "EOA/VOLayQNYVgAAAAAFAAAUAABQAABADdc/mql44+EZpz8AAAAASUVORK5CYII=",
            httpHeaders: nil
        ),
    ]

    /// The icons the hue profile lists where a Hue bridge lists its own (`hue_logo_0.png`, 48 pixels square,
    /// and `hue_logo_3.png`, 120): ssdp-sim's own drawing (a lit disc in a ring), 24-bit colour as the
    /// description says, made with Python's zlib. Served with the device's document headers.
    static let hueIcons: [String: ServedFile] = [
        "/hue_logo_0.png": ServedFile(
            contentType: "image/png",
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAADAAAAAwCAIAAADYYG7QAAAAwklEQVR42u3ZzQ2AMAgGUMZhCPePW+nZRP5p+x0gHpU8qUaK9IAFDWgZiNXY"
                + "B+JgLARxIZpB3BQ9oFz2tImieevPXB7U9e6E8pAzy88Z96UdiYQKyLhYp8gsj4liGj9FYJkmA9SgUU02SLyDiuZr0otErvLUNbJJAy1ZrODC"
                + "0b7y+IoEDNqhcZgGNKABDWhAImi+ZWnQwfYDrkFDbGHhmnzEbRDcRhFxK404bEAcxyAOrBBHeohDT9CxMOjgfP51nI4XnXPmUma2dJ0AAAAA"
                + "SUVORK5CYII=",
            httpHeaders: nil
        ),
        "/hue_logo_3.png": ServedFile(
            contentType: "image/png",
            base64:
                "iVBORw0KGgoAAAANSUhEUgAAAHgAAAB4CAIAAAC2BqGFAAACVUlEQVR42u3dQXLDMAiFYY7TQ/T+01vRRddpYls8HtKvyd7iGw2TKAYiWZIV"
                + "EAANNAtooIFmAf23vj5YQJewTqSPzXxtxWNXXzfx2N7XRDyOIm7kjgOJW7jjWGIxd6CssQ6INdzhrDzioW3QJnG6cYeJsmEG84V2/oLVvrfo"
                + "imTKj34v6FnXDi27DfG+h97H9kMr9vrz/f7jvP/n0IW7/AR3EbrGOryUn/g+EBdYh4vyWuLr3NXWhdD9xDXcOuhlu9EQX+Quso4eZT3xFe4K"
                + "6w7oXuUPrPuhN1HusI5DleXWK6GHKa+wXg+9p7LQWgLtrPzOWgq9ubLEuhh6ivK/1iLoU5SLrZ9C75A0ViSQPuiJyg8O9VPos/JGZfYIjrPm"
                + "UANtAH2oco010EOh91B+bb0e+ujjXHCogZ4IvZPy6uwBtDH0EXnjbvYA2hKavLE8ewANNNBAAw000EADDTTQQAMNNNCN0FwqcXt3EjQX/0Af"
                + "As2fs0D7QpM9eCWMV8KA5rVd3o8GmtIKZWkFxUL2VVmUv1HQaVrQSYnyhFrwpOj+CnTSRmJGv46kMQqtfiTKSfOq2njvQSft2DTt2Lay1ion"
                + "LTN9oZMmsJomsOt3Q1vjhxuiUfcC6KT1vAw6GaYgg07Gg8igk4E3MuhkhJMMOhlKJoNOxuzJoJPBkTLoZBSqDHpJnPeibXloM3QyrloGPYu7"
                + "2qEceoS1AEEB7cwtC18H7cYtDlwN7cDdEnIPdIt4b6TN0AJxkwBdoJeLu8VlB32P3j+KAdB7LKCBBpoFNNBAQ6BZv/NoDPWPJ624AAAAAElF"
                + "TkSuQmCC",
            httpHeaders: nil
        ),
    ]

    /// The player icon the sonos profile lists where a Sonos One lists its own (`/img/icon-S18.png`, 48
    /// pixels square, which SoCo reports as `player_icon`): the hue profile's small drawing, served with the
    /// device's document headers.
    static let sonosIcons: [String: ServedFile] = [
        "/img/icon-S18.png": ServedFile(
            contentType: "image/png",
            bytes: hueIcons["/hue_logo_0.png"]?.bytes ?? [],
            httpHeaders: nil
        )
    ]

    /// A file of `contentType` whose bytes are `base64` (a literal of this file: it always decodes), with
    /// `httpHeaders`: by default the headers MiniDLNA sends with a file (upnphttp.c's start_dlna_header).
    private init(contentType: String, base64: String, httpHeaders: [SSDPHeaderField]? = miniDLNAFileHeaders) {
        self.init(
            contentType: contentType,
            bytes: Array(Data(base64Encoded: base64) ?? Data()),
            httpHeaders: httpHeaders
        )
    }

    private static let miniDLNAFileHeaders: [SSDPHeaderField] = [
        .init(name: "Connection", value: "close"), .init(name: "Date", value: "{date}"),
        .init(name: "Server", value: "{server}"), .init(name: "EXT", value: ""),
        .init(name: "realTimeInfo.dlna.org", value: "DLNA.ORG_TLAG=*"),
        .init(name: "transferMode.dlna.org", value: "Interactive"),
        .init(name: "Content-Type", value: "{Content-Type}"), .init(name: "Content-Length", value: "{length}"),
    ]
}
