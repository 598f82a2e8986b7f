import Foundation
import Synchronization

/// `body(0)` … `body(count - 1)`, several at once, their results in order:
/// the one fan-out of every "each clip at once" step. `width` bounds how many
/// run at a time, for work that mostly waits (probing URLs); without it
/// Dispatch runs about one per core.
package func concurrentMap<Value: Sendable>(_ count: Int, width: Int? = nil, _ body: @Sendable (Int) -> Value) -> [Value] {
    let results = ResultSlots<Value>(count: count)
    if let width {
        withoutActuallyEscaping(body) { body in
            let slots = DispatchSemaphore(value: max(1, width))
            let group = DispatchGroup()
            for index in 0..<count {
                slots.wait()
                DispatchQueue.global().async(group: group) {
                    results[index] = body(index)
                    slots.signal()
                }
            }
            group.wait() // nothing runs on after the return: `body` never escapes
        }
    } else {
        DispatchQueue.concurrentPerform(iterations: count) { index in results[index] = body(index) }
    }
    return results.values.map { $0! }
}

/// Fixed slots written by concurrent workers, one slot each.
final class ResultSlots<Value: Sendable>: Sendable {
    private let slots: Mutex<[Value?]>

    init(count: Int) { slots = Mutex(Array(repeating: nil, count: count)) }

    subscript(index: Int) -> Value? {
        get { slots.withLock { $0[index] } }
        set { slots.withLock { $0[index] = newValue } }
    }

    var values: [Value?] { slots.withLock { $0 } }
}
