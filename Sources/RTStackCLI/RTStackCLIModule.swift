// Command-line front end: argument parsing and subcommands.
public enum RTStackCLI {
    public static func main(_ arguments: [String]) -> Int32 { 0 }
}
