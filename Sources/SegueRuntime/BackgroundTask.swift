import Foundation
package import SegueMedia

/// Work on a thread of its own, in the one shape every background job has
/// here (preload, prefetch, the encoder): `value()` waits for the result and
/// may be asked again; `cancel()` asks the work to stop early (it checks
/// `cancellation`, and a demuxer opened with it breaks off a blocked read);
/// `join()` waits until the thread is done with everything it touched.
///
/// SAFETY (@unchecked Sendable): `outcome` and `finished` are read and written
/// only under `condition`; the work's value is made on the worker thread and
/// handed over whole, once the worker no longer touches it.
package final class BackgroundTask<Value>: @unchecked Sendable {
    let cancellation = Cancellation()
    private let condition = NSCondition()
    private var outcome: Result<Value, Error>?
    private var finished = false

    /// Starts `work` on a new thread named `name`.
    package init(name: String, _ work: @escaping @Sendable (Cancellation) throws -> Value) {
        let thread = Thread { [self] in
            // Named for the system too (ps, gdb, /proc), in its 15 characters:
            // Foundation keeps the name to itself on Linux.
            try? String(name.prefix(15)).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            let result = Result { try work(cancellation) }
            condition.withLock {
                outcome = result
                finished = true
                condition.broadcast()
            }
        }
        thread.name = name
        thread.start()
    }

    /// Runs `work` at once on the caller's thread: the same interface with nothing in the background.
    package init(runningNow work: (Cancellation) throws -> Value) {
        outcome = Result { try work(cancellation) }
        finished = true
    }

    /// The work's result, once it has one.
    package func value() throws -> Value {
        join()
        return try condition.withLock { outcome! }.get()
    }

    /// Asks the work to stop as soon as it can.
    func cancel() { cancellation.cancel() }

    /// Waits until the work has finished.
    package func join() {
        condition.withLock { while !finished { condition.wait() } }
    }

    /// Waits up to `seconds` for the work to finish; whether it has.
    package func join(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while !finished, condition.wait(until: deadline) {}
            return finished
        }
    }

    /// Cancels the work and waits for it to end.
    package func cancelAndJoin() {
        cancel()
        join()
    }
}
