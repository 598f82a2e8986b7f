import Foundation
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
///
/// SAFETY: all state is read and written under `condition`.
final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Taken slots are cleared at once, so the queue never keeps a frame alive.
    private var items: [Element?] = []
    private var head = 0
    private let capacity: Int
    private var closed = false

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds an item, waiting for room; false if the queue was closed.
    func push(_ item: Element) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !closed && items.count - head >= capacity { condition.wait() }
        guard !closed else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// Takes the oldest item, waiting for one; nil once closed and empty.
    func pop() -> Element? {
        condition.lock()
        defer { condition.unlock() }
        while !closed && head == items.count { condition.wait() }
        guard head < items.count else { return nil }
        let item = items[head]
        items[head] = nil
        head += 1
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
///
/// SAFETY: `requested` is read and written under `lock`.
public final class StopRequest: @unchecked Sendable {
    private let lock = NSLock()
    private var requested: Int32?

    public init() {}

    /// Asks the stitch to stop because of `signal`.
    public func stop(signal: Int32) { lock.withLock { if requested == nil { requested = signal } } }

    /// The signal that asked for a stop, if any.
    public var signal: Int32? { lock.withLock { requested } }
}
