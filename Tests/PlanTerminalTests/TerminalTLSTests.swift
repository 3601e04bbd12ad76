import ChronoSketchCore
import Glibc
import PlanProtocol
import PlanStore
import PlanTestSupport
import Testing

@testable import PlanTerminal

/// `plan` against a real wss:// server with a self-signed certificate.
@Suite("plan over wss:// with a self-signed certificate", .serialized, .database)
struct TerminalTLSTests {
    @Test("refused without the CA file; --ca-file and PLAN_CA_FILE trust it; a file without a certificate is refused")
    func caFile() async throws {
        try await offThePool {
            let certificate = try TestCertificate.make("plan-tls")
            defer { certificate.remove() }
            let store = TestDatabase.store
            let plan = TestDatabase.unique("plan")
            try store.createPlan(
                id: plan,
                document: PlanDocument(
                    title: "Demo", state: PlanState(tasks: Sample.collection, timeline: TimelineData())))
            let user = TestDatabase.unique("tls")
            let token = try store.createUser(user)
            try store.grant(user: user, plan: plan, role: .viewer)
            let server = try ServerProcess.start(
                arguments: ["--tls-cert", certificate.certificatePath, "--tls-key", certificate.keyPath])
            defer { _ = server.terminate() }
            let binary = productsDirectory + "/plan"
            let connection = ["--server", "wss://127.0.0.1:\(server.port)/ws", "--token", token, "--plan", plan]
            let figures = ScheduleFigures(Sample.collection, time: WorkingTime(.allDaysWorking))
            let expected = CommandSession.showText(
                Sample.copy(version: 0), language: .english,
                schedule: ScheduleAnswer(plan: plan, version: 0, figures: figures, ids: nil))

            // Without the CA file the certificate is not trusted: no plan, exit status 2. (With it,
            // the host is checked too: the certificate names 127.0.0.1.)
            let refused = try runProgram([binary, "show"] + connection)
            #expect(refused.status == 2)
            #expect(refused.output.isEmpty)
            let trusted = try runProgram([binary, "show", "--ca-file", certificate.certificatePath] + connection)
            #expect(trusted.status == 0)
            #expect(trusted.output == expected)
            let fromEnvironment = try runProgram(
                ["env", "PLAN_CA_FILE=\(certificate.certificatePath)", binary, "show"] + connection)
            #expect(fromEnvironment.status == 0)
            #expect(fromEnvironment.output == expected)
            // The key is no certificate: refused before connecting, in words.
            let wrong = shell(
                "'\(binary)' show --ca-file \(certificate.keyPath) " + connection.joined(separator: " ") + " 2>&1")
            #expect(wrong.status == 2)
            #expect(wrong.output.contains("holds no PEM certificate"), "\(wrong.output)")
            let german = shell(
                "'\(binary)' show --language de --ca-file \(certificate.keyPath) " + connection.joined(separator: " ")
                    + " 2>&1")
            #expect(german.output.contains("enthält kein PEM-Zertifikat"), "\(german.output)")
            let badURL = shell("'\(binary)' show --language de --server http://x --token t --plan p 2>&1")
            #expect(badURL.output.contains("keine ws://- oder wss://-Adresse: http://x"), "\(badURL.output)")
        }
    }
}
