package main

// `omnimessage-go bench MODE FILE`: one job over a JSON Lines corpus, for bench/native.py.
// `strict` decodes every line; `roundtrip` decodes and re-encodes it and counts the lines that
// come back byte for byte; `encoding-json-any` is the standard library's json.Unmarshal of every
// line into `any` (the floor: a JSON parser, no schema, no duplicate keys, no canonical form). One
// untimed warm-up pass, then one timed pass (in-process: no start-up, no file reading); prints
// {"accepted": N, "identical": N|null, "seconds": S, "cpu_seconds": C} (C: user+system time of the
// process over the pass, the garbage collector's threads included; 0 where
// the system has no getrusage: cpu_unix.go).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/omnimessage/omnimessage/go/messages"
)

func pass(lines [][]byte, mode string, out []byte) (accepted, identical int) {
	for _, line := range lines {
		if mode == "encoding-json-any" {
			var v any
			if json.Unmarshal(line, &v) == nil {
				accepted++
			}
			continue
		}
		m, err := messages.Decode(line)
		if err != nil {
			continue
		}
		accepted++
		if mode == "roundtrip" {
			out = m.AppendCanonical(out[:0])
			if bytes.Equal(out, line) {
				identical++
			}
		}
	}
	return accepted, identical
}

func bench(args []string) int {
	if len(args) != 2 || (args[0] != "strict" && args[0] != "roundtrip" && args[0] != "encoding-json-any") {
		fmt.Fprintln(os.Stderr, "usage: omnimessage-go bench strict|roundtrip|encoding-json-any FILE")
		return 2
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "omnimessage-go bench: cannot read the corpus")
		return 2
	}
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	out := make([]byte, 0, 1<<16)
	pass(lines, args[0], out)
	start, cpu := time.Now(), cpuSeconds()
	accepted, identical := pass(lines, args[0], out)
	seconds, cpu := time.Since(start).Seconds(), cpuSeconds()-cpu
	ident := "null"
	if args[0] == "roundtrip" {
		ident = fmt.Sprint(identical)
	}
	fmt.Printf("{\"accepted\": %d, \"identical\": %s, \"seconds\": %g, \"cpu_seconds\": %g}\n", accepted, ident, seconds, cpu)
	return 0
}
