package main

// The Go side of fuzz/differential.py. Reads batches of base64 inputs (one a line, a batch ended
// by a line `=`) and answers one JSON line per input: {"s": VERDICT, "l": VERDICT}, strict and
// lenient, where VERDICT is {"err": [category, pointer, offset]}, {"out": base64, "opaque": bool}
// or {"crash": text} (a panic, recovered: the harness reports it as a finding instead of dying).

import (
	"bufio"
	"encoding/base64"
	"io"
	"strconv"
	"strings"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

func errVerdict(err error) string {
	e := om.AsError(err)
	offset := "null"
	if e.Offset >= 0 {
		offset = strconv.Itoa(e.Offset)
	}
	return `{"err":["` + string(e.Category) + `",` + e.PointerJSON() + "," + offset + "]}"
}

func outVerdict(b []byte, opaque bool) string {
	return `{"out":"` + base64.StdEncoding.EncodeToString(b) + `","opaque":` + strconv.FormatBool(opaque) + "}"
}

func verdict(f func() string) (v string) {
	defer func() {
		if recover() != nil {
			v = `{"crash":"panic"}`
		}
	}()
	return f()
}

func differential(stdin io.Reader, stdout io.Writer) int {
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 1<<16), 1<<30)
	w := bufio.NewWriter(stdout)
	var batch [][]byte
	for in.Scan() {
		line := strings.TrimSpace(in.Text())
		if line != "=" {
			// the whole batch is read before answering: the harness writes it all, then reads
			data, _ := base64.StdEncoding.DecodeString(line)
			batch = append(batch, data)
			continue
		}
		for _, data := range batch {
			s := verdict(func() string {
				m, err := messages.Decode(data)
				if err != nil {
					return errVerdict(err)
				}
				return outVerdict(messages.Encode(m), false)
			})
			l := verdict(func() string {
				v, err := messages.DecodeLenient(data)
				if err != nil {
					return errVerdict(err)
				}
				return outVerdict(v.AppendCanonical(nil), v.Opaque != nil)
			})
			if _, err := w.WriteString(`{"s":` + s + `,"l":` + l + "}\n"); err != nil {
				return 1
			}
		}
		batch = batch[:0]
		if w.Flush() != nil {
			return 1
		}
	}
	if w.Flush() != nil || in.Err() != nil {
		return 1
	}
	return 0
}
