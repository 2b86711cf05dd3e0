//! Short import names for a bundle's wasm and its JavaScript glue.
//!
//! wasm-bindgen names every function the wasm imports from its glue
//! `__wbg_<name>_<16 hex digits>`. A bundle imports about two hundred, and each name is written
//! twice: in the wasm's import section and as a key of the glue's import object. The hex digits
//! are close to random, so gzip cannot take them back: together they cost each download about
//! 6 KiB. `cargo xtask dist` renames every such import to a short key (`$0`, `$1`, …) in both
//! files. Nothing else changes, and the rename is all or nothing: an import whose name is not
//! written exactly once in the glue stops the build rather than risk a page that cannot start.

use std::collections::BTreeMap;

/// The wasm binary's magic number and version 1.
const WASM_HEADER: [u8; 8] = *b"\0asm\x01\0\0\0";
const IMPORT_SECTION: u8 = 2;

/// `wasm` and `js` with every import from `module` (the glue's name as the wasm knows it, e.g.
/// `./kafka_bg.js`) renamed to a short key in both, and how many were renamed.
pub fn shorten(wasm: &[u8], js: &str, module: &str) -> Result<(Vec<u8>, String, usize), String> {
    let sections = sections(wasm)?;
    let mut out = WASM_HEADER.to_vec();
    let mut renames = BTreeMap::new();
    for (id, payload) in sections {
        let payload = if id == IMPORT_SECTION {
            rename_imports(payload, module, &mut renames)?
        } else {
            payload.to_vec()
        };
        out.push(id);
        write_uleb(&mut out, payload.len() as u64);
        out.extend_from_slice(&payload);
    }
    let js = rename_keys(js, &renames)?;
    Ok((out, js, renames.len()))
}

/// The key the `index`-th renamed import gets.
fn short_name(index: usize) -> String {
    format!("${index:x}")
}

/// Splits a wasm binary into its sections: (id, payload), in order.
fn sections(wasm: &[u8]) -> Result<Vec<(u8, &[u8])>, String> {
    if !wasm.starts_with(&WASM_HEADER) {
        return Err("not a version 1 WebAssembly binary".to_string());
    }
    let mut reader = Reader::new(&wasm[WASM_HEADER.len()..]);
    let mut found = Vec::new();
    while !reader.is_empty() {
        let id = reader.byte()?;
        let size = reader.uleb()? as usize;
        found.push((id, reader.bytes(size)?));
    }
    Ok(found)
}

/// The import section's payload with each import from `module` renamed; `renames` gets each
/// old name and its new one.
fn rename_imports(
    payload: &[u8],
    module: &str,
    renames: &mut BTreeMap<String, String>,
) -> Result<Vec<u8>, String> {
    let mut reader = Reader::new(payload);
    let count = reader.uleb()?;
    let mut out = Vec::with_capacity(payload.len());
    write_uleb(&mut out, count);
    for _ in 0..count {
        let from = reader.name()?;
        let name = reader.name()?;
        let description = reader.import_description()?;
        let new_name = if from == module {
            let short = short_name(renames.len());
            if renames.insert(name.to_string(), short.clone()).is_some() {
                return Err(format!("the wasm imports {name} twice"));
            }
            short
        } else {
            name.to_string()
        };
        write_name(&mut out, from);
        write_name(&mut out, &new_name);
        out.extend_from_slice(description);
    }
    if !reader.is_empty() {
        return Err("the import section has bytes after its last import".to_string());
    }
    Ok(out)
}

/// `js` with each old name of `renames` replaced by its new one, where it stands as a whole
/// word; each must stand exactly once (its key in the import object).
fn rename_keys(js: &str, renames: &BTreeMap<String, String>) -> Result<String, String> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(js.len());
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut rest = js;
    while let Some(start) = rest.find(is_word) {
        out.push_str(&rest[..start]);
        let word_len = rest[start..]
            .find(|c| !is_word(c))
            .unwrap_or(rest.len() - start);
        let word = &rest[start..start + word_len];
        match renames.get_key_value(word) {
            Some((old, new)) => {
                *seen.entry(old.as_str()).or_default() += 1;
                out.push_str(new);
            }
            None => out.push_str(word),
        }
        rest = &rest[start + word_len..];
    }
    out.push_str(rest);
    for old in renames.keys() {
        let times = seen.get(old.as_str()).copied().unwrap_or(0);
        if times != 1 {
            return Err(format!(
                "the glue names the import {old} {times} times, not once: cannot shorten it"
            ));
        }
    }
    Ok(out)
}

fn write_uleb(out: &mut Vec<u8>, mut value: u64) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

fn write_name(out: &mut Vec<u8>, name: &str) {
    write_uleb(out, name.len() as u64);
    out.extend_from_slice(name.as_bytes());
}

/// Reads a wasm binary's bytes, LEB128 numbers and names, failing at the end of its input.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self { rest: bytes }
    }

    fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    fn bytes(&mut self, len: usize) -> Result<&'a [u8], String> {
        if len > self.rest.len() {
            return Err("the wasm ends inside a section".to_string());
        }
        let (taken, rest) = self.rest.split_at(len);
        self.rest = rest;
        Ok(taken)
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.bytes(1)?[0])
    }

    fn uleb(&mut self) -> Result<u64, String> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err("a number in the wasm is too long".to_string())
    }

    fn name(&mut self) -> Result<&'a str, String> {
        let len = self.uleb()? as usize;
        std::str::from_utf8(self.bytes(len)?).map_err(|_| "a wasm name is not UTF-8".to_string())
    }

    /// One import's description (what it imports), as its bytes.
    fn import_description(&mut self) -> Result<&'a [u8], String> {
        let start = self.rest;
        match self.byte()? {
            // A function: its type's index. A tag: an attribute byte, then its type's index.
            0x00 => {
                self.uleb()?;
            }
            0x04 => {
                self.byte()?;
                self.uleb()?;
            }
            // A table: its element type, then its limits.
            0x01 => {
                self.byte()?;
                self.limits()?;
            }
            0x02 => self.limits()?,
            // A global: its value type and whether it is mutable.
            0x03 => {
                self.bytes(2)?;
            }
            kind => return Err(format!("an import of an unknown kind ({kind:#x})")),
        }
        Ok(&start[..start.len() - self.rest.len()])
    }

    fn limits(&mut self) -> Result<(), String> {
        let flags = self.byte()?;
        self.uleb()?;
        if flags & 1 == 1 {
            self.uleb()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wasm binary with a type section, the given imports (module, name, description) and a
    /// custom section after them.
    fn module_with(imports: &[(&str, &str, &[u8])]) -> Vec<u8> {
        let mut wasm = WASM_HEADER.to_vec();
        // One type: () -> ().
        wasm.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]);
        let mut payload = Vec::new();
        write_uleb(&mut payload, imports.len() as u64);
        for (module, name, description) in imports {
            write_name(&mut payload, module);
            write_name(&mut payload, name);
            payload.extend_from_slice(description);
        }
        wasm.push(IMPORT_SECTION);
        write_uleb(&mut wasm, payload.len() as u64);
        wasm.extend_from_slice(&payload);
        wasm.extend_from_slice(&[0, 5, 4, b'n', b'o', b't', b'e']);
        wasm
    }

    const GLUE: &str = "./kafka_bg.js";
    const FUNCTION: &[u8] = &[0x00, 0];
    const MEMORY: &[u8] = &[0x02, 1, 17, 0x80, 0x02];
    /// A table of externrefs with a minimum of 3 and no maximum.
    const TABLE_WITHOUT_MAX: &[u8] = &[0x01, 0x6f, 0, 3];
    const LONG: &str = "__wbg_getItem_0123456789abcdef";

    #[test]
    fn every_glue_import_gets_a_short_key_in_both_files_and_nothing_else_changes() {
        let wasm = module_with(&[
            (GLUE, LONG, FUNCTION),
            ("env", "memory", MEMORY),
            ("env", "table", TABLE_WITHOUT_MAX),
            (GLUE, "__wbindgen_init_externref_table", FUNCTION),
        ]);
        let js = format!(
            "const import0 = {{ {LONG}: function() {{}}, __wbindgen_init_externref_table: \
             function() {{ wasm.__wbg_not_an_import(); }} }};\nreturn {{ \"{GLUE}\": import0 }};"
        );
        let (short_wasm, short_js, renamed) = shorten(&wasm, &js, GLUE).unwrap();
        assert_eq!(renamed, 2);
        assert_eq!(
            short_js,
            format!(
                "const import0 = {{ $0: function() {{}}, $1: function() {{ \
                 wasm.__wbg_not_an_import(); }} }};\nreturn {{ \"{GLUE}\": import0 }};"
            )
        );
        let expected = module_with(&[
            (GLUE, "$0", FUNCTION),
            ("env", "memory", MEMORY),
            ("env", "table", TABLE_WITHOUT_MAX),
            (GLUE, "$1", FUNCTION),
        ]);
        assert_eq!(short_wasm, expected);
    }

    #[test]
    fn a_name_at_the_very_end_of_the_glue_is_renamed_too() {
        let wasm = module_with(&[(GLUE, LONG, FUNCTION)]);
        let (_, short_js, _) = shorten(&wasm, &format!("f({LONG}"), GLUE).unwrap();
        assert_eq!(short_js, "f($0");
    }

    #[test]
    fn an_import_the_glue_names_twice_or_never_stops_the_build() {
        let wasm = module_with(&[(GLUE, LONG, FUNCTION)]);
        let twice = format!("{{ {LONG}: f, other: {LONG} }}");
        assert!(shorten(&wasm, &twice, GLUE)
            .unwrap_err()
            .contains("2 times"));
        // A longer word that only starts with the name does not count.
        let never = format!("{{ {LONG}_2: f }}");
        assert!(shorten(&wasm, &never, GLUE)
            .unwrap_err()
            .contains("0 times"));
    }

    #[test]
    fn a_broken_binary_is_refused_not_rewritten() {
        assert!(shorten(b"not wasm", "", GLUE).is_err());
        let mut cut = module_with(&[(GLUE, LONG, FUNCTION)]);
        cut.truncate(cut.len() - 10);
        assert!(shorten(&cut, "", GLUE).is_err());
        let unknown = module_with(&[(GLUE, LONG, &[0x09, 0])]);
        assert!(shorten(&unknown, LONG, GLUE)
            .unwrap_err()
            .contains("unknown kind"));
    }

    #[test]
    fn many_imports_get_distinct_short_keys() {
        let names: Vec<String> = (0..300).map(|i| format!("__wbg_f{i}_00ff")).collect();
        let imports: Vec<(&str, &str, &[u8])> = names
            .iter()
            .map(|name| (GLUE, name.as_str(), FUNCTION))
            .collect();
        let js: String = names.iter().map(|name| format!("{name}: f,\n")).collect();
        let (_, short_js, renamed) = shorten(&module_with(&imports), &js, GLUE).unwrap();
        assert_eq!(renamed, 300);
        let keys: std::collections::BTreeSet<&str> = short_js
            .lines()
            .map(|line| line.trim_end_matches(": f,"))
            .collect();
        assert_eq!(keys.len(), 300);
        assert!(keys.contains("$12b"), "300 - 1 in hex");
    }
}
