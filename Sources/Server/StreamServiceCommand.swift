import ArgumentParser

@main
struct StreamServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stream-service")
    func run() throws { print("stream-service") }
}
