import Foundation
import HTTPServer
import Testing

@testable import CounterService

/// A body member of the wrong type is refused in JSON's words: what was expected and what was
/// found, with its `field`.
@Suite struct WrongTypeWordingTests {
  /// Bug: the message was Foundation's, naming Swift types and its own wording ("Expected to
  /// decode Dictionary<String, Any> but found an array instead.", "Cannot get value of type
  /// String -- found null value instead"), which differs between platforms.
  @Test(arguments: [
    (
      "/features/ref/a", #"{"title":null}"#,
      "title has the wrong type: expected a string, found null"
    ),
    (
      "/features/ref/a", #"{"title":1}"#,
      "title has the wrong type: expected a string, found a number"
    ),
    (
      "/features/ref/a", #"{"title":true}"#,
      "title has the wrong type: expected a string, found true or false"
    ),
    (
      "/features/ref/a", #"{"title":"A","stage":"1"}"#,
      "stage has the wrong type: expected a whole number, found a string"
    ),
    (
      "/features/ref/a", #"{"title":"A","tags":{"a":1}}"#,
      "tags has the wrong type: expected an array, found an object"
    ),
    (
      "/features/ref/a", #"{"title":"A","tags":[1,"2"]}"#,
      "tags[1] has the wrong type: expected a whole number, found a string"
    ),
    ("/features/ref/a", #"[]"#, "the body has the wrong type: expected an object, found an array"),
    (
      "/settings", #"{"votingEnabled":1}"#,
      "votingEnabled has the wrong type: expected true or false, found a number"
    ),
    (
      "/settings", #"{"theme":"red"}"#,
      "theme has the wrong type: expected an object, found a string"
    ),
  ])
  func theMessageSaysWhatWasExpectedAndFound(path: String, body: String, message: String)
    async throws
  {
    try await BoardHarness.with { harness in
      let answer = await harness.call(
        .put, "/api/v1/demo-app" + path, json: body, admin: true)
      #expect(answer.status == 400, "\(answer.body)")
      #expect(
        answer.object["error"].flatMap { ($0 as? [String: Any])?["message"] as? String } == message,
        "\(answer.body)")
      #expect(answer.body.contains(#""code":"invalid_json""#))
    }
  }
}

/// A `409 …_in_use` says what holds the object, counted in good English, and what to do.
@Suite struct InUseWordingTests {
  /// Bug: "stage 1 holds 1 features", "1 features carry tag 1", "board b holds 1 features and
  /// 1 columns", and none said how to get the object free.
  @Test func theRefusalCountsAndSaysWhatToDo() async throws {
    try await BoardHarness.with { harness in
      await harness.admin(.put, "/boards/side", #"{"slug":"side","name":"Side"}"#)
      await harness.admin(.post, "/stages", #"{"name":"Planned","position":0,"board":"side"}"#)
      await harness.admin(.post, "/tags", #"{"name":"iOS"}"#)
      await harness.admin(
        .put, "/features/ref/one", #"{"title":"One","board":"side","stage":1,"tags":[1]}"#)
      let expected = [
        (
          "/stages/1",
          "stage 1 holds 1 feature: give it another stage (or none) or delete it first"
        ),
        ("/tags/1", "1 feature carries tag 1: take it off that feature first"),
        ("/boards/side", "board side holds 1 feature and 1 column: move or delete them first"),
      ]
      for (path, message) in expected {
        let answer = await harness.call(.delete, "/api/v1/demo-app" + path, admin: true)
        #expect(answer.status == 409, "\(answer.body)")
        let error = answer.object["error"] as? [String: Any]
        #expect(error?["message"] as? String == message, "\(answer.body)")
      }
      await harness.admin(.put, "/features/ref/two", #"{"title":"Two","tags":[1]}"#)
      let two = await harness.call(.delete, "/api/v1/demo-app/tags/1", admin: true)
      #expect(two.body.contains("2 features carry tag 1: take it off them first"), "\(two.body)")
    }
  }
}
