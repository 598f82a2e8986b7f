import Foundation
internal import SegueMedia
import SegueModel

/// How Segue writes a file the user asked for (a stitch's or a join's
/// output, a plan, a receipt): the target is checked before any work, the
/// bytes go to a temporary file beside it, and only a complete file is
/// renamed over it; a failure or a stop removes the temporary file. Every
/// message about writing is worded here.
public enum OutputFile {
    /// The temporary file an output is written to before it is renamed over the target.
    public static func temporaryPath(for output: String) -> String {
        let url = URL(fileURLWithPath: output)
        return url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).partial").path
    }

    /// Writes `output` through its temporary file: `write` makes the file at
    /// the path it is given (a leftover from a killed run is removed first);
    /// it is renamed over `output` only when `write` succeeded and `stop` was
    /// not raised, and removed otherwise.
    package static func write<T>(_ output: String, stop: StopRequest, _ write: (_ temporary: String) throws -> T) throws -> T {
        let temporary = temporaryPath(for: output)
        unlink(temporary) // a leftover from a killed run
        do {
            let result = try write(temporary)
            if let signal = stop.signal { throw SegueError.interrupted(signal: signal) }
            try moveIntoPlace(temporary, over: output)
            return result
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes `data` to a temporary file beside `path` of a name no other
    /// process uses, syncs it, and renames it over `path`.
    package static func writeAtomically(_ data: Data, to path: String) throws {
        let temporary = temporaryPath(for: path) + "-\(getpid())-\(UUID().uuidString.prefix(8))"
        guard FileManager.default.createFile(atPath: temporary, contents: data),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw SegueError(.writeFailed, subject: path, detail: "can't write it")
        }
        try? handle.synchronize()
        try? handle.close()
        try moveIntoPlace(temporary, over: path, what: "it")
    }

    /// Renames the finished `temporary` over `path`; if that fails, removes
    /// `temporary` and throws a write failure naming `path` and `what` was moved.
    package static func moveIntoPlace(_ temporary: String, over path: String, what: String = "the finished file") throws {
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw SegueError(.writeFailed, subject: path, detail: "can't move \(what) into place (\(reason))")
        }
    }

    /// Checks the target before any work: its folder exists and is writable,
    /// and an existing file is only replaced when overwriting was asked for.
    /// With `folderMayBeMade` (a plan, whose join writes later and makes the
    /// folder), a missing folder is fine when it can be made: the nearest
    /// part of its path that exists is a writable folder.
    package static func checkOutput(_ output: String, overwrite: Bool, folderMayBeMade: Bool = false) throws {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            if folderMayBeMade, !FileManager.default.fileExists(atPath: folder) {
                try checkFolderCanBeMade(folder)
                return
            }
            throw SegueError.outputFolder(folder, reason: isFolder.boolValue || !FileManager.default.fileExists(atPath: folder)
                                          ? "output folder does not exist" : "output folder is a file")
        }
        guard Glibc.access(folder, W_OK) == 0 else {
            throw SegueError.outputFolder(folder, reason: "output folder is not writable")
        }
        if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) {
            if isFolder.boolValue { throw SegueError.outputFolder(output, reason: "output is a folder") }
            if !overwrite { throw SegueError.outputExists(output) }
        }
    }

    /// Throws unless `folder`, which doesn't exist, can be made: the nearest
    /// part of its path that exists must be a folder we may write in.
    static func checkFolderCanBeMade(_ folder: String) throws {
        var ancestor = URL(fileURLWithPath: folder)
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
            ancestor.deleteLastPathComponent()
        }
        guard isFolder.boolValue else {
            throw SegueError.outputFolder(folder, reason: "output folder can't be made: \(ancestor.path) is a file")
        }
        guard Glibc.access(ancestor.path, W_OK) == 0 else {
            throw SegueError.outputFolder(folder, reason: "output folder can't be made: \(ancestor.path) is not writable")
        }
    }

    /// Makes the output's folder (and those above it) if it is missing: a
    /// plan's join writes where the plan was told to, made or not.
    package static func makeOutputFolder(for output: String) throws {
        let folder = URL(fileURLWithPath: output).deletingLastPathComponent().path
        guard !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw SegueError.outputFolder(folder, reason: "can't make the output folder (\(error.localizedDescription))")
        }
    }

    /// Runs a step that writes the output, naming the output in any error.
    package static func writing<T>(to outputPath: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SegueError {
            throw error
        } catch {
            throw writeFailure(error, output: outputPath, doing: "writing failed")
        }
    }

    /// A failure to write the output, told apart from a full disk.
    package static func writeFailure(_ error: Error, output: String, doing: String) -> SegueError {
        SegueError(error as? FFmpegError == .noSpace ? .noSpace : .writeFailed, subject: output,
                   detail: "\(doing) (\(describe(error)))", underlying: error)
    }

    /// An error in words: a full disk said plainly, libav's errors as they describe themselves.
    package static func describe(_ error: Error) -> String {
        if let error = error as? FFmpegError {
            return error == .noSpace ? "no space left on device" : error.description
        }
        return "\(error)"
    }
}
