// Command omnimessage-go is the Go binding's command line.
//
//   - `omnimessage-go canonicalize [--lenient] [FILE]`: each line of FILE (default: standard input)
//     in canonical form on standard output; refusals on standard error with their line number;
//     exit 1 when a line was refused.
//   - `omnimessage-go testee`: the conformance testee (conformance/TESTEE-PROTOCOL.md).
//   - `omnimessage-go differential`, `omnimessage-go bench MODE FILE`: for fuzz/differential.py and
//     bench/native.py.
package main

import (
	"fmt"
	"os"
)

const usage = "usage: omnimessage-go canonicalize [--lenient] [FILE]\n       omnimessage-go testee\n       omnimessage-go differential\n       omnimessage-go bench strict|roundtrip|encoding-json-any FILE\n"

// version is the binding's version, shown in the testee's handshake.
const version = "0.1.0"

func main() {
	code := 2
	switch cmd := ""; {
	case len(os.Args) > 1:
		cmd = os.Args[1]
		switch cmd {
		case "canonicalize":
			code = canonicalize(os.Args[2:])
		case "testee":
			code = testee(os.Stdin, os.Stdout)
		case "differential":
			code = differential(os.Stdin, os.Stdout)
		case "bench":
			code = bench(os.Args[2:])
		case "--version":
			fmt.Println("omnimessage-go " + version)
			code = 0
		case "-h", "--help":
			fmt.Print(usage)
			code = 0
		default:
			fmt.Fprint(os.Stderr, usage)
		}
	default:
		fmt.Fprint(os.Stderr, usage)
	}
	os.Exit(code)
}
