/// `roadmapctl votes`: moves counts and voter sets in and out of a store.
struct VotesCommand: Command {
  static let configuration = CommandConfiguration(
    name: "votes",
    abstract: "Export or import every vote count (and voter set) of a store, as JSON.",
    discussion: """
      For backups and moves between hosts or stores: 'votes export' writes one JSON document \
      that 'votes import' reads back. Run them while 'roadmapctl serve' is stopped or running: \
      an export is one consistent snapshot, an import is all or nothing. 'votes pull' copies a \
      roadmap's counts from a counting API that is going away into a running server. 'votes \
      merge-refs' merges board features whose refs are one ref in different Unicode forms.
      """,
    subcommands: [
      VotesExportCommand.self,
      VotesImportCommand.self,
      VotesPullCommand.self,
      VotesMergeRefsCommand.self,
    ])
}
