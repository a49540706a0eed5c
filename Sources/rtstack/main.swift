import RTStackCLI

#if canImport(Glibc)
import Glibc
#endif

exit(RTStackCLI.main(Array(CommandLine.arguments.dropFirst())))
