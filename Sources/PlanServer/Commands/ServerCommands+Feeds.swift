import CommandLineOptions
import PlanProtocol
import PlanStore
import SystemSupport

extension ServerCommands {
    /// `feed create NAME PLAN` prints the feed's path with NAME's key (the same on every asking),
    /// `feed list NAME` each of NAME's keys, `feed revoke NAME PLAN` ends one (interchange.md §13).
    static func feed(_ command: Subcommand, _ options: ParsedArguments, store: PlanStore) throws {
        let user = try options.positional(2, "NAME")
        switch command {
        case .feedCreate:
            let plan = try options.positional(3, "PLAN")
            try options.noPositionals(after: 4)
            guard let key = try store.feedKey(plan: plan, user: user) else {
                throw CommandError("\(user) has no role on a plan \(plan): a feed key needs one", status: 1)
            }
            ProcessIO.print(PlanPaths.feed(plan: plan, key: key))
        case .feedList:
            try options.noPositionals(after: 3)
            for listing in try store.feedKeys(of: user) {
                ProcessIO.print(
                    "\(listing.plan)\t\(PlanPaths.feed(plan: listing.plan, key: listing.key))\t\(listing.createdAt)")
            }
        case .feedRevoke:
            let plan = try options.positional(3, "PLAN")
            try options.noPositionals(after: 4)
            guard try store.revokeFeedKey(plan: plan, user: user) else {
                throw CommandError("\(user) has no feed key for \(plan)", status: 1)
            }
            ProcessIO.print("revoked \(user)'s feed key for \(plan); its address stops working now")
        default:
            preconditionFailure("not a feed command")
        }
    }
}
