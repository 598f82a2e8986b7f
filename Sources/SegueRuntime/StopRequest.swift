import Foundation
import Synchronization

/// A stop request that another thread (a signal handler's queue) may raise
/// while a stitch runs; the stitcher checks it once per frame.
public final class StopRequest: Sendable {
    /// The first signal that asked; 0 while none has.
    private let requested = Atomic<Int32>(0)

    public init() {}

    /// Asks the stitch to stop because of `signal` (the first request wins).
    package func stop(signal: Int32) {
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
