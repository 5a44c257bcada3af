//go:build !unix

package main

// cpuSeconds is 0 where the system has no getrusage: `bench` then reports wall time alone.
func cpuSeconds() float64 { return 0 }
