import Glibc

/// A throwaway self-signed certificate for 127.0.0.1 (and its key) in a directory of its own,
/// made with `openssl`, for tests of wss:// and https://.
public struct TestCertificate: Sendable {
    /// The directory holding `cert.pem` and `key.pem`.
    public let directory: String

    /// The certificate (PEM), valid for 127.0.0.1 by name and by IP address, for one day.
    public var certificatePath: String { "\(directory)/cert.pem" }
    /// Its private key (PEM, unencrypted).
    public var keyPath: String { "\(directory)/key.pem" }

    /// Makes one under `/tmp/PREFIX-…`.
    /// - Throws: `HarnessError` with openssl's output when it fails.
    public static func make(_ prefix: String) throws -> TestCertificate {
        let directory = "/tmp/\(prefix)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let made = shell(
            "mkdir -p \(directory) && openssl req -x509 -newkey rsa:2048 -nodes -keyout \(directory)/key.pem "
                + "-out \(directory)/cert.pem -days 1 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>&1")
        guard made.status == 0 else { throw HarnessError("openssl could not make a certificate: \(made.output)") }
        return TestCertificate(directory: directory)
    }

    /// Deletes the directory.
    public func remove() {
        shell("rm -rf \(directory)")
    }
}
