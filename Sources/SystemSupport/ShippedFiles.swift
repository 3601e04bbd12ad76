import Glibc

/// Where the folders that ship beside the programs are found (`sql/`, `clients/web/`): next to
/// the running executable or a few folders above it (a checkout's `.build/debug`, an installed
/// prefix), else in the source checkout the program was built from.
public enum ShippedFiles {
    /// The folder `relative` that holds `marker`, searched from the running executable's folder
    /// up through `levels` folders; nil when none has it.
    public static func besideExecutable(_ relative: String, holding marker: String, levels: Int) -> String? {
        guard var directory = executablePath() else { return nil }
        for _ in 0..<levels {
            directory = parent(of: directory)
            if directory.isEmpty { break }
            if access("\(directory)/\(relative)/\(marker)", R_OK) == 0 { return "\(directory)/\(relative)" }
        }
        return nil
    }

    /// The folder `relative` in the source checkout this module was compiled from (whether it
    /// exists or not).
    public static func inSourceCheckout(_ relative: String) -> String {
        // This file is <checkout>/Sources/SystemSupport/ShippedFiles.swift.
        var root = #filePath
        for _ in 0..<3 { root = parent(of: root) }
        return "\(root)/\(relative)"
    }

    /// The running executable's path (`/proc/self/exe`), nil when it cannot be read.
    public static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(of path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }
}
