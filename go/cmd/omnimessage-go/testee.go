package main

// The Go binding as a conformance testee (conformance/TESTEE-PROTOCOL.md). Each request's input is
// read the way the reader reads a one-line JSON Lines file, so the reader's categories
// (`too_large`, `truncated`) are tested too.

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"strconv"

	om "github.com/omnimessage/omnimessage/go"
	"github.com/omnimessage/omnimessage/go/messages"
)

// The request and handshake types are generated from the protocol's schema (testee_protocol.go);
// the answers are written byte by byte, so that a pointer holding a lone surrogate keeps its escape.

func testee(stdin io.Reader, stdout io.Writer) int {
	in := bufio.NewReaderSize(stdin, 1<<16)
	out := bufio.NewWriter(stdout)
	line, err := in.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return 2
	}
	var hs RunnerHello
	if json.Unmarshal(line, &hs) != nil || hs.Hello != helloValue || hs.Protocol != protocolValue {
		_, _ = io.WriteString(stdout, "")
		return 2
	}
	reply, _ := json.Marshal(TesteeHello{Hello: helloValue, Protocol: protocolValue, Implementation: ptr("omnimessage-go"), Version: ptr(version)})
	_, _ = out.Write(append(reply, '\n'))
	if out.Flush() != nil {
		return 1
	}
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			_, _ = out.Write(answer(line))
			if out.Flush() != nil {
				return 1
			}
		}
		if err != nil {
			return 0
		}
	}
}

func answer(line []byte) []byte {
	var req Request
	_ = json.Unmarshal(line, &req)
	out := append([]byte(`{"id":`), om.AppendString(nil, req.ID)...)
	data, err := base64.StdEncoding.DecodeString(req.Input)
	if err != nil {
		return append(out, `,"result":"skipped","reason":"malformed request: input is not base64"}`+"\n"...)
	}
	opts := om.ReaderOptions{Lenient: req.Mode == "lenient"}
	if req.MaxLineBytes != nil {
		opts.MaxLineBytes = *req.MaxLineBytes
	}
	r := messages.NewReader(bytes.NewReader(data), opts)
	first, ok := r.Next()
	if _, more := r.Next(); !ok || more {
		return append(out, `,"result":"skipped","reason":"malformed request: the input does not hold exactly one line"}`+"\n"...)
	}
	if first.Err != nil {
		e := first.Err
		out = append(out, `,"result":"refused","category":"`+string(e.Category)+`","pointer":`...)
		out = append(out, e.PointerJSON()...)
		if e.Offset >= 0 {
			out = append(out, `,"offset":`+strconv.Itoa(e.Offset)...)
		}
		out = append(out, `,"message":`...)
		out = om.AppendString(out, e.Detail)
		return append(out, "}\n"...)
	}
	encoded := messages.Decoded{Message: first.Message, Opaque: first.Opaque}.AppendCanonical(nil)
	out = append(out, `,"result":"encoded","output":"`...)
	out = append(out, base64.StdEncoding.EncodeToString(encoded)...)
	return append(out, "\"}\n"...)
}

func ptr[T any](v T) *T { return &v }
