import Foundation

/// Carries a non-Sendable value (a frame, a clip source) across a thread
/// boundary exactly once.
///
/// SAFETY: every use hands the value over whole: the sending thread keeps no
/// reference after creating the box, so only one thread ever touches the value.
package struct Handoff<Value>: @unchecked Sendable {
    package let value: Value

    package init(value: Value) { self.value = value }
}

/// A first-in first-out queue of fixed capacity between two threads: `push`
/// waits while it is full, `pop` while it is empty. Closing wakes both sides.
/// Each item weighs something (1 unless said): the queue is full when the
/// weights it holds would pass its capacity. An item heavier than the whole
/// capacity still goes into an empty queue, alone.
///
/// SAFETY: all state is read and written under `condition`.
package final class BoundedQueue<Element>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Taken slots are cleared at once, so the queue never keeps a frame alive.
    private var items: [(item: Element, weight: Int)?] = []
    private var head = 0
    private let capacity: Int
    /// The weight of the items queued.
    private var load = 0
    private var closed = false

    package init(capacity: Int) {
        self.capacity = capacity
    }

    /// Adds an item, waiting for room; false if the queue was closed.
    package func push(_ item: Element, weight: Int = 1) -> Bool {
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
    package func pop() -> Element? {
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
    package func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Stops the queue and drops what is left: pops find it empty at once.
    package func discard() {
        condition.lock()
        closed = true
        items.removeAll()
        head = 0
        load = 0
        condition.broadcast()
        condition.unlock()
    }
}
