import Testing

@testable import RoadmapCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `PartialFileCleanup` takes over only a signal left at its default action, and gives back
/// only an action that is still its own. It took over a signal the process handled itself
/// (in a full test run, while a test stopped a server with SIGINT: its handler then ended the
/// whole test process by SIGINT), and its restore put the default action back over the
/// `SIG_IGN` that test had set meanwhile.
@Suite struct PartialFileCleanupRuleTests {
  /// A handler of someone else's.
  static let theirs: @convention(c) (Int32) -> Void = { _ in }

  @Test func onlyTheDefaultActionIsTakenOver() {
    #expect(PartialFileCleanup.isDefault(PartialFileCleanup.action(nil)))
    #expect(!PartialFileCleanup.isDefault(PartialFileCleanup.action(SIG_IGN)))
    #expect(!PartialFileCleanup.isDefault(PartialFileCleanup.action(Self.theirs)))
    var withInfo = PartialFileCleanup.action(nil)
    withInfo.sa_flags = SA_SIGINFO
    #expect(!PartialFileCleanup.isDefault(withInfo))
  }

  @Test func onlyItsOwnActionIsGivenBack() {
    #expect(PartialFileCleanup.isOurs(PartialFileCleanup.ours))
    #expect(!PartialFileCleanup.isOurs(PartialFileCleanup.action(nil)))
    #expect(!PartialFileCleanup.isOurs(PartialFileCleanup.action(SIG_IGN)))
    #expect(!PartialFileCleanup.isOurs(PartialFileCleanup.action(Self.theirs)))
  }
}
