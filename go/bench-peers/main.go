// Command omnimessage-go-peers measures the Go ecosystem's parsers on the bench corpora, for
// bench/native.py (development only: this module is not the runtime module and its dependency
// never reaches it). `omnimessage-go-peers bench MODE FILE` decodes every line into the structs of
// types.go, MODE `encoding-json-structs` with the standard library, `go-json-structs` with
// github.com/goccy/go-json (a drop-in, faster encoding/json). Like `omnimessage-go bench`: one
// untimed warm-up pass, then one timed pass (in-process: no start-up, no file reading); prints
// {"accepted": N, "identical": null, "seconds": S, "cpu_seconds": C} (C: user+system time of the
// process over the pass, the garbage collector's threads included).
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"syscall"
	"time"

	gojson "github.com/goccy/go-json"
)

var modes = map[string]unmarshalFunc{
	"encoding-json-structs": json.Unmarshal,
	"go-json-structs":       gojson.Unmarshal,
}

func pass(lines [][]byte, unmarshal unmarshalFunc) (accepted int) {
	for _, line := range lines {
		if _, err := decode(unmarshal, line); err == nil {
			accepted++
		}
	}
	return accepted
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func bench(args []string) int {
	var unmarshal unmarshalFunc
	if len(args) == 2 {
		unmarshal = modes[args[0]]
	}
	if unmarshal == nil {
		fmt.Fprintln(os.Stderr, "usage: omnimessage-go-peers bench encoding-json-structs|go-json-structs FILE")
		return 2
	}
	data, err := os.ReadFile(args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "omnimessage-go-peers bench: cannot read the corpus")
		return 2
	}
	lines := bytes.Split(data, []byte("\n"))
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	pass(lines, unmarshal)
	start, cpu := time.Now(), cpuSeconds()
	accepted := pass(lines, unmarshal)
	seconds, cpu := time.Since(start).Seconds(), cpuSeconds()-cpu
	fmt.Printf("{\"accepted\": %d, \"identical\": null, \"seconds\": %g, \"cpu_seconds\": %g}\n", accepted, seconds, cpu)
	return 0
}

func main() {
	if len(os.Args) < 2 || os.Args[1] != "bench" {
		fmt.Fprintln(os.Stderr, "usage: omnimessage-go-peers bench encoding-json-structs|go-json-structs FILE")
		os.Exit(2)
	}
	os.Exit(bench(os.Args[2:]))
}
