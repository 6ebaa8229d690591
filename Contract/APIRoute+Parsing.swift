extension APIRoute {
  /// What a request's method and target are, read against the contract.
  public enum Parsed: Sendable, Hashable {
    /// An operation of the contract, with its values.
    case route(APIRoute)
    /// An operation of the contract whose query breaks its rules: a `422` with `problem`,
    /// once the request's authorization has been checked.
    case invalidQuery(APIOperation, problem: String)
    /// A path of the contract that does not take this method: a `405` with `Allow`.
    case methodNotAllowed(allowed: [APIMethod])
    /// No path of the contract: a `404`.
    case notFound
  }

  /// Reads a request as the server received it. `method` as the request line has it.
  public static func parse(method: String, target: RequestTarget) -> Parsed {
    parse(APIOperation.resolve(method: method, pathSegments: target.pathSegments), target: target)
  }

  /// Reads a request whose operation the server has resolved already (it sets the body's
  /// limit before the body is read): the path is not matched a second time.
  public static func parse(_ resolved: APIOperation.Resolved, target: RequestTarget) -> Parsed {
    switch resolved {
    case .operation(let operation, let pathValues):
      do {
        return .route(try APIRoute(operation, pathValues: pathValues, target: target))
      } catch {
        return .invalidQuery(operation, problem: error.problem)
      }
    case .methodNotAllowed(let allowed): return .methodNotAllowed(allowed: allowed)
    case .notFound: return .notFound
    }
  }

  /// A query value that breaks the contract's rule for it.
  struct InvalidQuery: Error {
    let problem: String
  }

  /// The route of `operation`, with its path's values and its query checked against the
  /// contract's rules (`APIOperation.queryParameters`).
  init(_ operation: APIOperation, pathValues: [String], target: RequestTarget) throws(InvalidQuery)
  {
    let query = try CheckedQuery(operation, target)
    switch operation {
    case .signUp: self = .signUp
    case .issueToken: self = .issueToken
    case .profile: self = .profile
    case .revokeToken: self = .revokeToken
    case .listConversations: self = .listConversations
    case .conversation: self = .conversation(name: pathValues[0])
    case .addMessage: self = .addMessage
    case .likesPage:
      self = .likesPage(page: query.integer(.page), batchSize: query.integer(.batchSize))
    case .peoplePage:
      self = .peoplePage(page: query.integer(.page), batchSize: query.integer(.batchSize))
    case .likePerson: self = .likePerson(id: pathValues[0])
    case .passPerson: self = .passPerson(id: pathValues[0])
    case .blockPerson: self = .blockPerson(id: pathValues[0])
    case .unmatch: self = .unmatch(id: pathValues[0])
    case .likeBack: self = .likeBack(id: pathValues[0])
    case .skipLike: self = .skipLike(id: pathValues[0])
    case .mutuals: self = .mutuals
    case .events: self = .events(after: query.integer(.after), wait: query.integer(.wait))
    case .pushSession: self = .pushSession
    case .pushStatus:
      self = .pushStatus(session: query.text(.session), uuid: query.text(.uuid) ?? "")
    case .pushRegister: self = .pushRegister
    case .pushDeregister: self = .pushDeregister
    case .vendorStatus: self = .vendorStatus(uuid: query.text(.uuid) ?? "")
    case .vendorRegister: self = .vendorRegister
    case .vendorDeregister: self = .vendorDeregister
    case .health: self = .health
    case .readiness: self = .readiness
    case .metrics: self = .metrics
    }
  }
}

/// A request's query, checked against its operation's parameters: each integer's value (a
/// missing optional one is its default), each text as sent.
private struct CheckedQuery {
  private var integers: [String: Int] = [:]
  private var texts: [String: String] = [:]

  init(_ operation: APIOperation, _ target: RequestTarget) throws(APIRoute.InvalidQuery) {
    for parameter in operation.queryParameters {
      let sent = target.value(of: parameter.name)
      switch parameter.value {
      case .integer(let range, let rule):
        if sent == nil, !parameter.isRequired, let defaultValue = parameter.defaultValue {
          integers[parameter.name] = defaultValue
          continue
        }
        guard let value = sent.flatMap({ Int($0) }), range.contains(value) else {
          throw APIRoute.InvalidQuery(problem: "\(parameter.name) must be \(rule)")
        }
        integers[parameter.name] = value
      case .text:
        if let sent, !sent.isEmpty {
          texts[parameter.name] = sent
        } else if parameter.isRequired {
          throw APIRoute.InvalidQuery(problem: "\(parameter.name) is required")
        }
      case .credential:
        texts[parameter.name] = sent
      }
    }
  }

  /// Checked by `init`: every integer parameter of the operation has a value.
  func integer(_ parameter: APIQueryParameter) -> Int { integers[parameter.name]! }

  func text(_ parameter: APIQueryParameter) -> String? { texts[parameter.name] }
}

extension APIOperation {
  /// Which operation a method and a decoded path are.
  public enum Resolved: Sendable, Hashable {
    case operation(APIOperation, pathValues: [String])
    case methodNotAllowed(allowed: [APIMethod])
    case notFound

    /// The operation, when the method and the path are one.
    public var operation: APIOperation? {
      guard case .operation(let operation, _) = self else { return nil }
      return operation
    }
  }

  /// The operation of `method` on `pathSegments`; when the path is the contract's but the
  /// method is not, the methods the path takes (for `405`'s `Allow`).
  public static func resolve(method: String, pathSegments: [String]) -> Resolved {
    var allowed: [APIMethod] = []
    for (operation, path, operationMethod) in paths {
      guard let values = path.match(pathSegments) else { continue }
      if operationMethod.rawValue == method { return .operation(operation, pathValues: values) }
      allowed.append(operationMethod)
    }
    return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed: allowed.sorted())
  }

  /// The table's rows, read once: every request is matched against them.
  private static let paths = allCases.map { ($0, $0.path, $0.method) }
}

extension APIOperation {
  /// The operation of `method` on `pathSegments`, if it is one.
  public static func of(method: String, pathSegments: [String]) -> APIOperation? {
    resolve(method: method, pathSegments: pathSegments).operation
  }
}

extension RequestTarget {
  /// The target below `prefix`, which its path starts with.
  public func droppingPrefix(_ prefix: [String]) -> RequestTarget {
    RequestTarget(pathSegments: Array(pathSegments.dropFirst(prefix.count)), query: query)
  }
}
