extension SSDPServiceDescription {
    /// A description written in the catalog's short notation, one line per action and per variable:
    ///
    /// - an action: `Name` or `Name: InArg=Variable InArg2=Variable -> OutArg=Variable`;
    /// - a variable: `Name type`, then any of `events`, `default=VALUE`, `values=A|B|C`, `range=MIN...MAX`.
    ///
    /// The notation is for the built-in catalog, written by hand and checked by its tests; a line that does
    /// not follow it is a programming error.
    init(actions: [String], variables: [String]) {
        self.init(
            actions: actions.map(Self.action(_:)),
            stateVariables: variables.map(Self.stateVariable(_:))
        )
    }

    private static func action(_ line: String) -> Action {
        let parts = line.split(separator: ":", maxSplits: 1)
        let name = String(parts[0])
        guard parts.count == 2 else { return Action(name: name, arguments: []) }
        var direction = Argument.Direction.in
        var arguments: [Argument] = []
        for word in parts[1].split(separator: " ") {
            if word == "->" {
                direction = .out
                continue
            }
            let pair = word.split(separator: "=")
            precondition(pair.count == 2, "catalog: argument '\(word)' of \(name) is not NAME=VARIABLE")
            arguments.append(
                Argument(name: String(pair[0]), direction: direction, relatedStateVariable: String(pair[1]))
            )
        }
        return Action(name: name, arguments: arguments)
    }

    private static func stateVariable(_ line: String) -> StateVariable {
        let words = line.split(separator: " ")
        precondition(words.count >= 2, "catalog: variable '\(line)' needs a name and a type")
        var variable = StateVariable(name: String(words[0]), dataType: String(words[1]))
        for word in words.dropFirst(2) {
            if word == "events" {
                variable.sendEvents = true
            } else if word.hasPrefix("default=") {
                variable.defaultValue = String(word.dropFirst("default=".count))
            } else if word.hasPrefix("values=") {
                variable.allowedValues = word.dropFirst("values=".count).split(separator: "|").map(String.init)
            } else if word.hasPrefix("range="), let bounds = Self.range(word.dropFirst("range=".count)) {
                variable.allowedRange = bounds
            } else {
                preconditionFailure("catalog: '\(word)' of variable \(variable.name)")
            }
        }
        return variable
    }

    private static func range(_ text: Substring) -> ClosedRange<Int>? {
        let bounds = text.split(separator: ".", omittingEmptySubsequences: true).compactMap { Int($0) }
        guard bounds.count == 2, bounds[0] <= bounds[1] else { return nil }
        return bounds[0]...bounds[1]
    }
}
