/// What `--auth-protect` can put behind a token: the event feed, the metrics, the user API.
enum ProtectedArea: String, Sendable, CaseIterable, Hashable {
    case events, metrics, users

    /// Parses `events,metrics`, `all` or `none`.
    static func parse(_ text: String) -> Set<ProtectedArea>? {
        var areas = Set<ProtectedArea>()
        for name in text.split(separator: ",").map({ $0.trimmingWhitespace().lowercased() }) {
            switch name {
            case "all": areas.formUnion(allCases)
            case "none": continue
            default:
                guard let area = ProtectedArea(rawValue: name) else { return nil }
                areas.insert(area)
            }
        }
        return areas
    }
}
