import ArgumentParser
import Foundation
import SegueKit

struct Transitions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every transition --transition takes, or write a preview of each.",
        discussion: """
        One line per name: the name, then what it does. Segue's own fade and
        slides come first, then every transition of libavfilter's xfade under
        xfade's own name, FFmpeg 6.1's newer xfade shapes (drawn by Segue),
        the gl-transitions effects (gl_...), then random. A gl_ effect takes
        its parameters by name: gl_doorway(depth=2,reflection=0.2); a wrong
        one is told what the effect takes.

        With --easings, the curves --easing takes instead, one a line.

        Examples:
          segue transitions
          segue transitions --easings
          segue transitions --preview previews/

        Exit codes: 0 done; 2 the preview folder can't be made; 1 a preview
        can't be written.
        """
    )

    @Option(help: ArgumentHelp("Write one PNG strip per transition into this folder: \(TransitionPreview.frames) frames of it between two test pictures.", valueName: "DIR"))
    var preview: String?
    @Flag(help: "List the easing curves --easing (and a join's \"easing\") takes, with a few words on each.")
    var easings = false

    func validate() throws {
        if easings && preview != nil { throw ValidationError("--easings lists the curves; --preview draws the transitions: one at a time") }
    }

    func run() throws {
        if easings {
            let width = Easing.catalogue.map(\.name.count).max() ?? 0
            for entry in Easing.catalogue { print(entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.summary) }
            return
        }
        if let preview {
            let written = try TransitionPreview.write(into: preview)
            Terminal.write("segue: wrote \(written.count) previews to \(preview)\n")
            return
        }
        let entries = TransitionCatalogue.entries
        let width = entries.map(\.name.count).max() ?? 0
        for entry in entries {
            print(entry.name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + entry.summary)
        }
    }
}
