import Foundation
import RoadmapCLI

exit(await RoadmapCLI.main(Array(CommandLine.arguments.dropFirst())))
