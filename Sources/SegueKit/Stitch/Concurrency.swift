import Foundation
import SegueMedia
import Synchronization

/// Work on a thread of its own, in the one shape every background job has
/// here (preload, prefetch, the encoder): `value()` waits for the result and
/// may be asked again; `cancel()` asks the work to stop early (it checks
/// `cancellation`, and a demuxer opened with it breaks off a blocked read);
/// `join()` waits until the thread is done with everything it touched.
///
/// SAFETY (@unchecked Sendable): `outcome` and `finished` are read and written
/// only under `condition`; the work's value is made on the worker thread and
/// handed over whole, once the worker no longer touches it.
final class BackgroundTask<Value>: @unchecked Sendable {
    let cancellation = Cancellation()
    private let condition = NSCondition()
    private var outcome: Result<Value, Error>?
    private var finished = false

    /// Starts `work` on a new thread named `name`.
    init(name: String, _ work: @escaping @Sendable (Cancellation) throws -> Value) {
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
    init(runningNow work: (Cancellation) throws -> Value) {
        outcome = Result { try work(cancellation) }
        finished = true
    }

    /// The work's result, once it has one.
    func value() throws -> Value {
        join()
        return try condition.withLock { outcome! }.get()
    }

    /// Asks the work to stop as soon as it can.
    func cancel() { cancellation.cancel() }

    /// Waits until the work has finished.
    func join() {
        condition.withLock { while !finished { condition.wait() } }
    }

    /// Waits up to `seconds` for the work to finish; whether it has.
    func join(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while !finished, condition.wait(until: deadline) {}
            return finished
        }
    }

    /// Cancels the work and waits for it to end.
    func cancelAndJoin() {
        cancel()
        join()
    }
}
import SegueMedia

/// Carries a non-Sendable value (a frame, a clip source) across a thread
/// boundary exactly once.
///
/// SAFETY: every use hands the value over whole: the sending thread keeps no
/// reference after creating the box, so only one thread ever touches the value.
struct Handoff<Value>: @unchecked Sendable {
    let value: Value
}

/// A first-in first-out queue of fixed capacity between two threads: `push`
/// waits while it is full, `pop` while it is empty. Closing wakes both sides.
/// Each item weighs something (1 unless said): the queue is full when the
/// weights it holds would pass its capacity. An item heavier than the whole
/// capacity still goes into an empty queue, alone.
///
/// SAFETY: all state is read and written under `condition`.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Taken slots are cleared at once, so the queue never keeps a frame alive.
    private var items: [(item: Element, weight: Int)?] = []
    private var head = 0
    private let capacity: Int
    /// The weight of the items queued.
    private var load = 0
    private var closed = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds an item, waiting for room; false if the queue was closed.
    func push(_ item: Element, weight: Int = 1) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed && head < items.count && load + weight > capacity { condition.wait() }
        guard !closed else { return false }
        items.append((item, weight))
        load += weight
        condition.broadcast()
        return true
    }

    /// Takes the oldest item, waiting for one; nil once closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && head == items.count { condition.wait() }
        guard head < items.count, let (item, weight) = items[head] else { return nil }
        items[head] = nil
        head += 1
        load -= weight
        if head > 64 && head * 2 > items.count { items.removeFirst(head); head = 0 }
        condition.broadcast()
        return item
    }

    /// Stops the queue: pushes fail from now on, pops drain what is left.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the queue and drops what is left: pops find it empty at once.
    func discard() {
        condition.lock()
        closed = true
        items.removeAll()
        head = 0
        load = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// Seconds on a monotonic clock.
func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// This process's peak resident memory in bytes (Linux reports kilobytes).
public func peakMemoryBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss * 1024
}

/// A stop request that another thread (a signal handler's queue) may raise
/// while a stitch runs; the stitcher checks it once per frame.
public final class StopRequest: Sendable {
    /// The first signal that asked; 0 while none has.
    private let requested = Atomic<Int32>(0)

    public init() {}

    /// Asks the stitch to stop because of `signal` (the first request wins).
    public func stop(signal: Int32) {
        _ = requested.compareExchange(expected: 0, desired: signal, ordering: .relaxed)
    }

    /// The signal that asked for a stop, if any.
    public var signal: Int32? {
        let value = requested.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Raises this request when the process receives one of `signals`, instead
    /// of letting it die mid-write, until the returned watch is cancelled. A
    /// process-wide choice: the program makes it, not the library.
    public func raise(on signals: [Int32]) -> SignalWatch {
        SignalWatch(signals: signals) { [self] in stop(signal: $0) }
    }
}

/// Signals turned into calls on a dispatch queue (see `StopRequest.raise(on:)`).
public final class SignalWatch {
    private var sources: [DispatchSourceSignal] = []

    init(signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN) // the dispatch source receives it instead
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops watching (the signals stay ignored: a late one can't kill a finishing write).
    public func cancel() {
        sources.forEach { $0.cancel() }
    }
}
