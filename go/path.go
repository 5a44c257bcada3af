package omnimessage

import "strconv"

// Path is the path from the line's value to the value being decoded: a segment and its parent,
// built on the decoder's stack and rendered as a JSON pointer (RFC 6901) only on a refusal.
type Path struct {
	parent  *Path
	key     string // WTF-8: a key may escape a lone surrogate
	index   int
	isIndex bool
}

// rootPath is the path of the line's value.
var rootPath = &Path{}

// Key is the path of member key of this value.
func (p *Path) Key(key string) *Path { return &Path{parent: p, key: key} }

// Index is the path of item n of this array.
func (p *Path) Index(n int) *Path { return &Path{parent: p, index: n, isIndex: true} }

// Render is the JSON pointer, "" for the line itself.
func (p *Path) Render() string {
	if p == nil || p.parent == nil {
		return ""
	}
	out := []byte(p.parent.Render())
	if p.isIndex {
		out = strconv.AppendInt(append(out, '/'), int64(p.index), 10)
		return string(out)
	}
	return string(appendToken(out, p.key))
}

// RenderWith is the pointer of member key of this value.
func (p *Path) RenderWith(key string) string {
	return string(appendToken([]byte(p.Render()), key))
}

// appendToken appends `/` and token with `~` as `~0` and `/` as `~1`.
func appendToken(out []byte, token string) []byte {
	out = append(out, '/')
	for i := 0; i < len(token); i++ {
		switch token[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, token[i])
		}
	}
	return out
}
