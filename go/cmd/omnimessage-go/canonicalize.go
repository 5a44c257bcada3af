package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

// canonicalize writes each line of a file (or standard input) in canonical form; refusals go to
// standard error with their line number (sanitised: no raw control character reaches a terminal).
func canonicalize(args []string) int {
	lenient := false
	var path string
	for _, a := range args {
		switch {
		case a == "--lenient":
			lenient = true
		case path == "" && (a == "-" || !strings.HasPrefix(a, "-")):
			path = a
		default:
			fmt.Fprint(os.Stderr, usage)
			return 2
		}
	}
	var in io.Reader = os.Stdin
	if path != "" && path != "-" {
		f, err := os.Open(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "omnimessage-go: cannot open the input")
			return 2
		}
		defer f.Close()
		in = f
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	r := messages.NewReader(in, om.ReaderOptions{Lenient: lenient})
	code := 0
	for {
		line, ok := r.Next()
		if !ok {
			return code
		}
		if line.Err != nil {
			fmt.Fprintln(os.Stderr, sanitize(line.Err.Error()))
			code = 1
			continue
		}
		_, _ = out.Write(messages.Decoded{Message: line.Message, Opaque: line.Opaque}.AppendCanonical(nil))
		_ = out.WriteByte('\n')
	}
}

// sanitize escapes control characters and invalid UTF-8 in text bound for a terminal (the way
// the project's sanitiser does: as \xNN or \uNNNN).
func sanitize(text string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(text, "\uFFFD") {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
			fmt.Fprintf(&b, "\\u%04x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
