//! JSON pointers (RFC 6901), built only when a line is refused: a decoder walks with a
//! linked list of path segments on its stack and renders it on a refusal.

/// One step of the path from the line's value to the value being decoded.
#[derive(Clone, Copy)]
pub enum Seg<'a> {
    Root,
    Key(&'a [u8]), // WTF-8: a key may escape a lone surrogate
    Index(usize),
}

/// The path of the value being decoded: a segment and its parent, on the stack.
#[derive(Clone, Copy)]
pub struct Path<'a> {
    pub parent: Option<&'a Path<'a>>,
    pub seg: Seg<'a>,
}

impl<'a> Path<'a> {
    pub const ROOT: Path<'static> = Path {
        parent: None,
        seg: Seg::Root,
    };

    pub fn key(&'a self, key: &'a str) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Seg::Key(key.as_bytes()),
        }
    }

    /// A member whose key is WTF-8 bytes.
    pub fn key_wtf8(&'a self, key: &'a [u8]) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Seg::Key(key),
        }
    }

    pub fn index(&'a self, index: usize) -> Path<'a> {
        Path {
            parent: Some(self),
            seg: Seg::Index(index),
        }
    }

    /// The pointer, `""` for the line itself.
    pub fn render(&self) -> Pointer {
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(p) = at {
            segs.push(p.seg);
            at = p.parent;
        }
        let mut out = Vec::new();
        for seg in segs.iter().rev() {
            match seg {
                Seg::Root => {}
                Seg::Key(k) => push_token(&mut out, k),
                Seg::Index(i) => {
                    out.push(b'/');
                    out.extend_from_slice(i.to_string().as_bytes());
                }
            }
        }
        Pointer(out)
    }

    /// The pointer of member `key` (WTF-8) of this value.
    pub fn render_with(&self, key: &[u8]) -> Pointer {
        let mut out = self.render();
        push_token(&mut out.0, key);
        out
    }
}

/// Appends `/` and `token` with `~` as `~0` and `/` as `~1`.
fn push_token(out: &mut Vec<u8>, token: &[u8]) {
    out.push(b'/');
    for &c in token {
        match c {
            b'~' => out.extend_from_slice(b"~0"),
            b'/' => out.extend_from_slice(b"~1"),
            _ => out.push(c),
        }
    }
}

/// A JSON pointer (RFC 6901). Held as WTF-8: a pointer names keys, and a key may escape a lone
/// surrogate (which is what the refusal is about).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Pointer(Vec<u8>);

impl Pointer {
    /// `""`: the line itself.
    pub fn root() -> Pointer {
        Pointer(Vec::new())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The WTF-8 bytes.
    pub fn as_wtf8(&self) -> &[u8] {
        &self.0
    }

    /// The pointer as text, when it holds no lone surrogate.
    pub fn as_str(&self) -> Option<&str> {
        std::str::from_utf8(&self.0).ok()
    }

    /// As a JSON string, `JSON.stringify`'s spelling (a lone surrogate as `\udxxx`).
    pub fn to_json(&self) -> String {
        let mut out = Vec::new();
        crate::escape::write_wtf8(&mut out, &self.0);
        String::from_utf8_lossy(&out).into_owned()
    }
}

impl std::fmt::Display for Pointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf8_lossy(&self.0))
    }
}

impl std::fmt::Debug for Pointer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_json())
    }
}

impl PartialEq<&str> for Pointer {
    fn eq(&self, other: &&str) -> bool {
        self.0 == other.as_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_escaped_tokens() {
        let root = Path::ROOT;
        let a = root.key("a/b");
        let b = a.index(3);
        let c = b.key("~x");
        assert_eq!(c.render(), "/a~1b/3/~0x");
        assert_eq!(root.render(), "");
        assert_eq!(a.render_with(b"k"), "/a~1b/k");
        assert_eq!(root.render_with(b"t\xed\xb0\x80").to_json(), "\"/t\\udc00\"");
    }
}
