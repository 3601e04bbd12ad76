import Dispatch
import Foundation
import Testing

@testable import WebSocketServer

@Suite("Thread-bound state")
struct ThreadBoundTests {
    @Test("bound to the thread that binds it: owned there, not on another thread, not before binding")
    func ownership() {
        var state = ThreadBound([1, 2])
        #expect(!state.isOnOwningThread)
        state.bind()
        #expect(state.isOnOwningThread)
        state.value.append(3)
        #expect(state.value == [1, 2, 3])
        nonisolated(unsafe) let copy = state
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var elsewhere = true
        let thread = Thread {
            elsewhere = copy.isOnOwningThread
            done.signal()
        }
        thread.start()
        done.wait()
        #expect(!elsewhere)
    }
}
