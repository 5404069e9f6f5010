import Foundation
import TestProcess

@testable import HTTPServer

/// Starts a server on 127.0.0.1, port 0, with short timeouts, and the test router (or
/// `handler`), offering requests to `immediate` first when given.
func startTestServer(
  _ configure: (inout HTTPServerConfiguration) -> Void = { _ in },
  immediate: HTTPImmediateHandler? = nil, handler: HTTPHandler? = nil
) throws -> HTTPServer {
  var configuration = HTTPServerConfiguration(
    host: "127.0.0.1", port: 0, headerReadTimeout: .seconds(5), bodyReadTimeout: .seconds(5),
    idleTimeout: .seconds(5), writeTimeout: .seconds(5))
  configure(&configuration)
  let server = HTTPServer(
    configuration: configuration, immediate: immediate, handler: handler ?? testRouter().handler)
  try server.start()
  return server
}

/// Routes used across the live tests.
func testRouter() -> Router {
  var router = Router()
  router.get("/hello") { _ in .json(#"{"hello":"world"}"#) }
  router.get("/get/:ns/:key") { req in
    .json(#"{"ns":"\#(req.parameter("ns")!)","key":"\#(req.parameter("key")!)"}"#)
  }
  router.post("/echo") { req in
    HTTPResponse(status: 200, headers: ["Content-Type": "application/octet-stream"], body: req.body)
  }
  router.get("/sleep/:ms") { req in
    let ms = Int(req.parameter("ms")!) ?? 0
    try? await Task.sleep(for: .milliseconds(ms))
    return .json(#"{"slept":\#(ms)}"#)
  }
  router.get("/query") { req in
    .json(req.queryItems.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
  }
  router.get("/inject") { _ in
    HTTPResponse(status: 200, headers: ["X-Bad": "a\r\nSet-Cookie: evil=1", "X-Good": "fine"])
  }
  router.get("/big/:mb") { req in
    HTTPResponse(body: [UInt8](repeating: 0x61, count: (Int(req.parameter("mb")!) ?? 1) << 20))
  }
  router.get("/status/:code") { req in
    HTTPResponse(status: Int(req.parameter("code")!) ?? 0, body: Array("body".utf8))
  }
  router.get("/close") { _ in
    HTTPResponse(status: 200, headers: ["Connection": "close"], body: Array("bye".utf8))
  }
  return router
}

/// Runs an external program and returns its exit status, stdout and stderr.
func runProcess(_ path: String, _ arguments: [String], stdin: Data? = nil) throws -> (
  Int32, String, String
) {
  let out = Pipe()
  let err = Pipe()
  let input = Pipe()
  let process = try Subprocess(
    path, arguments, stdin: .pipe(input), stdout: .pipe(out), stderr: .pipe(err))
  if let stdin { input.fileHandleForWriting.write(stdin) }
  try input.fileHandleForWriting.close()
  // Drain both pipes before waiting, or a chatty child blocks on a full pipe.
  let errBox = LockedArray<Data>()
  let done = DispatchSemaphore(value: 0)
  Thread {
    errBox.append(err.fileHandleForReading.readDataToEndOfFile())
    done.signal()
  }.start()
  let outData = out.fileHandleForReading.readDataToEndOfFile()
  done.wait()
  let errData = errBox.values.first ?? Data()
  let status = process.waitUntilExit()
  return (
    status, String(decoding: outData, as: UTF8.self),
    String(decoding: errData, as: UTF8.self)
  )
}

/// Runs blocking client code on a Dispatch thread, off Swift's cooperative pool, which the
/// server's handlers need.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
  try await withCheckedThrowingContinuation { continuation in
    // A thread of its own: Dispatch's global pool is as small as the CPU count and
    // grows only after a delay when its threads block.
    Thread { continuation.resume(with: Result { try body() }) }.start()
  }
}

/// Adds two immediate routes answered later from another thread: `/later/:ms` after `ms`
/// milliseconds, as a store's writer answers a vote, and `/later-io/:ms` the same inside an
/// `onIOThread` body, as the vote batcher answers.
func addLaterRoutes(to router: inout Router) {
  router.immediate("/later/:ms") { request, responder in
    let ms = Int(request.parameter("ms")!) ?? 0
    Thread {
      usleep(useconds_t(ms * 1000))
      responder.respond(.json(#"{"later":\#(ms)}"#))
    }.start()
    return .deferred
  }
  router.immediate("/later-io/:ms") { request, responder in
    let ms = Int(request.parameter("ms")!) ?? 0
    Thread {
      usleep(useconds_t(ms * 1000))
      responder.onIOThread { responder.respond(.json(#"{"later-io":\#(ms)}"#)) }
    }.start()
    return .deferred
  }
}
