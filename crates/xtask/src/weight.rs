//! What a visitor downloads to open one lesson, per bundle of the built site.
//!
//! The site ships one WebAssembly bundle per lesson family (`web/src/bundles.rs`); the loader in
//! index.html picks one from the address with its `BUNDLE_OF` table. Opening a lesson therefore
//! costs the page's style sheets plus one bundle's `<name>.js` and `<name>_bg.wasm`, whatever the
//! number of lessons on the site; this module adds those up from dist/ and names the lessons
//! each bundle carries, reading the same table the loader reads.

/// One file of dist/ and its size after `gzip -9`.
pub struct BuiltFile {
    pub name: String,
    pub gzipped_bytes: u64,
}

/// One bundle: its name, the lessons the loader sends to it, and what opening one costs.
#[derive(Debug, PartialEq)]
pub struct BundleWeight {
    pub name: String,
    pub lessons: Vec<String>,
    /// The bundle's wasm and js plus every style sheet, gzipped.
    pub download_bytes: u64,
}

/// The loader's `slug: bundle` pairs, from the text of index.html.
pub fn loader_table(html: &str) -> Vec<(String, String)> {
    let Some(start) = html.find("const BUNDLE_OF = {") else {
        return Vec::new();
    };
    let end = html[start..]
        .find("};")
        .map_or(html.len(), |end| start + end);
    html[start..end]
        .lines()
        .skip(1)
        .filter_map(|line| {
            let (slug, bundle) = line.trim().trim_end_matches(',').split_once(':')?;
            let unquote = |s: &str| s.trim().trim_matches('\'').to_string();
            Some((unquote(slug), unquote(bundle)))
        })
        .collect()
}

/// Every bundle in `files` (a `<name>_bg.wasm` beside its `<name>.js`) with what opening it
/// costs, in file-name order.
pub fn bundle_weights(files: &[BuiltFile], table: &[(String, String)]) -> Vec<BundleWeight> {
    let size_of = |name: &str| {
        files
            .iter()
            .find(|file| file.name == name)
            .map(|file| file.gzipped_bytes)
    };
    let style_bytes: u64 = files
        .iter()
        .filter(|file| file.name.ends_with(".css"))
        .map(|file| file.gzipped_bytes)
        .sum();
    files
        .iter()
        .filter_map(|file| {
            let name = file.name.strip_suffix("_bg.wasm")?;
            let js = size_of(&format!("{name}.js"))?;
            let lessons = table
                .iter()
                .filter(|(_, bundle)| bundle == name)
                .map(|(slug, _)| slug.clone())
                .collect();
            Some(BundleWeight {
                name: name.to_string(),
                lessons,
                download_bytes: file.gzipped_bytes + js + style_bytes,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, gzipped_bytes: u64) -> BuiltFile {
        BuiltFile {
            name: name.to_string(),
            gzipped_bytes,
        }
    }

    #[test]
    fn the_loader_table_is_read_as_slug_and_bundle_pairs() {
        let html = "<script>\n const BUNDLE_OF = {\n  'partitions': 'kafka',\n  'top-k': 'joins',\n };\n const X = 1;";
        assert_eq!(
            loader_table(html),
            [
                ("partitions".to_string(), "kafka".to_string()),
                ("top-k".to_string(), "joins".to_string())
            ]
        );
        assert!(loader_table("<p>no loader</p>").is_empty());
    }

    #[test]
    fn a_bundle_costs_its_wasm_its_js_and_every_style_sheet_but_no_other_bundle() {
        let files = [
            file("app-1.css", 3),
            file("gallery.js", 10),
            file("gallery_bg.wasm", 100),
            file("kafka.js", 20),
            file("kafka_bg.wasm", 200),
            file("site-2.css", 4),
            file("index.html", 1000),
        ];
        let table = [("partitions".to_string(), "kafka".to_string())];
        assert_eq!(
            bundle_weights(&files, &table),
            [
                BundleWeight {
                    name: "gallery".to_string(),
                    lessons: vec![],
                    download_bytes: 117,
                },
                BundleWeight {
                    name: "kafka".to_string(),
                    lessons: vec!["partitions".to_string()],
                    download_bytes: 227,
                },
            ]
        );
    }
}
