import RTStackCLI

#if canImport(Glibc)
import Glibc
#endif

exit(await RTStackCLI.main(Array(CommandLine.arguments.dropFirst())))
