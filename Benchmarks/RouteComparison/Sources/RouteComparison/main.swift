import Contract
import Foundation
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

// `route-comparison generated|handwritten PORT`: serves `GET /likes?page=&batchSize=` (a
// fixed page of 10 people, so that only routing, parameter parsing and encoding are
// measured) and a 404 for any other path, the floor.

struct Person: Encodable {
  let id: String
  let userName: String
  let avatarURL: String?
}

let people = (0..<10).map { index in
  Person(
    id: "00000000-0000-4000-8000-00000000000\(index)", userName: "Person \(index).",
    avatarURL: index % 5 == 0 ? nil : "https://avatars.example/\(index).png")
}

/// The generated protocol, implemented: the runtime parses the query and encodes the body.
struct GeneratedLikes: APIProtocol {
  func likesPage(_ input: Operations.likesPage.Input) async throws -> Operations.likesPage.Output {
    let page = input.query.page
    return .ok(
      .init(
        body: .json(
          .init(
            data: people.map {
              Components.Schemas.UserModel(
                id: $0.id, userName: $0.userName, avatarURL: $0.avatarURL)
            },
            nextCursor: page < 5 ? page + 1 : nil))))
  }
}

struct PageBody: Encodable {
  let data: [Person]
  let nextCursor: Int?

  // `nextCursor` is "Int or null": write the null, as the generated code does.
  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(data, forKey: .data)
    try container.encode(nextCursor, forKey: .nextCursor)
  }

  enum CodingKeys: String, CodingKey { case data, nextCursor }
}

/// The project's way: the request target read by the Contract, one switch, `JSONEncoder`.
func handwritten(_ request: Request) -> Response {
  let target = RequestTarget(parsing: Substring(request.uri.description))
  switch APIRoute.parse(method: request.method.rawValue, target: target) {
  case .route(.likesPage(let page, _)):
    let body = try! JSONEncoder().encode(
      PageBody(data: people, nextCursor: page < 5 ? page + 1 : nil))
    return Response(
      status: .ok, headers: [.contentType: "application/json"],
      body: .init(byteBuffer: ByteBuffer(bytes: body)))
  case .invalidQuery:
    return Response(status: .unprocessableContent)
  case .methodNotAllowed:
    return Response(status: .methodNotAllowed)
  default:
    return Response(status: .notFound)
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[2]) else {
  print("usage: route-comparison generated|handwritten PORT")
  exit(64)
}
let configuration = ApplicationConfiguration(address: .hostname("127.0.0.1", port: port))
switch arguments[1] {
case "generated":
  let router = Router()
  try GeneratedLikes().registerHandlers(on: router)
  try await Application(router: router, configuration: configuration)
    .runService()
case "handwritten":
  try await Application(
    responder: CallbackResponder<BasicRequestContext> { request, _ in handwritten(request) },
    configuration: configuration
  ).runService()
default:
  print("usage: route-comparison generated|handwritten PORT")
  exit(64)
}
