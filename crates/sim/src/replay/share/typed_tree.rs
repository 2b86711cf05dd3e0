//! A link's JSON tree read as the lesson's scenario type, with an error of our own.
//!
//! serde_json's `Value` is a serde deserializer too, but its error type is serde_json's, and
//! the only way to get a message out of that is its `Display`, which knows how to describe
//! I/O errors as well: every bundle that showed why a link's scenario is malformed carried
//! the standard library's I/O error texts and their formatting (1.2 KiB gzipped) for errors a
//! tree in memory never has. This reader hands the tree to the scenario's `Deserialize` the way
//! serde_json's does (numbers, strings, arrays, objects, options, and enums as a string or a
//! one-field object), so a link reads as before and a malformed one gets serde's own sentence.

use serde::de::value::StringDeserializer;
use serde::de::{
    self, DeserializeOwned, DeserializeSeed, Deserializer, EnumAccess, IntoDeserializer, MapAccess,
    SeqAccess, Unexpected, VariantAccess, Visitor,
};
use serde_json::{Map, Number, Value};
use std::fmt;

/// Why a tree is not a value of the type asked for: serde's sentence, as it wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeError(pub String);

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TreeError {}

impl de::Error for TreeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        TreeError(message.to_string())
    }

    fn invalid_type(found: Unexpected, expected: &dyn de::Expected) -> Self {
        de::Error::custom(format_args!(
            "invalid type: {}, expected {expected}",
            Json(found)
        ))
    }

    fn invalid_value(found: Unexpected, expected: &dyn de::Expected) -> Self {
        de::Error::custom(format_args!(
            "invalid value: {}, expected {expected}",
            Json(found)
        ))
    }
}

/// A value named as JSON names it: serde's "unit value" is JSON's `null`.
struct Json<'a>(Unexpected<'a>);

impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Unexpected::Unit => f.write_str("null"),
            other => other.fmt(f),
        }
    }
}

/// Reads `tree` as a `T`, as `T::deserialize(tree)` would.
pub fn from_tree<T: DeserializeOwned>(tree: Value) -> Result<T, TreeError> {
    T::deserialize(Tree(tree))
}

/// A tree (or a part of one) being read.
struct Tree(Value);

/// `Deserializer` methods that read their kind the way another one does.
macro_rules! read_as {
    ($reader:ident: $($method:ident)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
            self.$reader(visitor)
        }
    )*};
}

impl<'de> Deserializer<'de> for Tree {
    type Error = TreeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            Value::Bool(flag) => visitor.visit_bool(flag),
            Value::Number(number) => visit_number(&number, visitor),
            Value::String(text) => visitor.visit_string(text),
            Value::Array(items) => visit_items(items, visitor),
            Value::Object(fields) => visit_fields(fields, visitor),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Bool(flag) => visitor.visit_bool(flag),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Number(number) => visit_number(&number, visitor),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::String(text) => visitor.visit_string(text),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Null => visitor.visit_unit(),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Array(items) => visit_items(items, visitor),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Object(fields) => visit_fields(fields, visitor),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    /// A struct is an object of its fields, or an array of their values in order.
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Array(items) => visit_items(items, visitor),
            Value::Object(fields) => visit_fields(fields, visitor),
            other => Err(wrong_type(&other, &visitor)),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            present => visitor.visit_some(Tree(present)),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        visitor.visit_newtype_struct(self)
    }

    /// An enum is written as its variant's name, or as an object whose one field is named
    /// after the variant and holds what the variant carries.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        match self.0 {
            Value::String(name) => visitor.visit_enum(Variant {
                name,
                carried: Carried(None),
            }),
            Value::Object(fields) if fields.len() == 1 => {
                let mut fields = fields.into_iter();
                match fields.next() {
                    Some((name, value)) => visitor.visit_enum(Variant {
                        name,
                        carried: Carried(Some(value)),
                    }),
                    None => Err(not_one_field()),
                }
            }
            Value::Object(_) => Err(not_one_field()),
            other => Err(wrong_type(&other, &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, TreeError> {
        visitor.visit_unit()
    }

    // Every number reads as a number does, whatever its width; a string, a unit struct, a
    // tuple as their kind does (the visitor names a wrong one); the rest as anything.
    serde::forward_to_deserialize_any! { i128 u128 char bytes byte_buf }
    read_as!(deserialize_u64: deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_f32 deserialize_f64);
    read_as!(deserialize_string: deserialize_str deserialize_identifier);

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        self.deserialize_seq(visitor)
    }
}

/// A number, as the widest of its kinds that holds it.
fn visit_number<'de, V: Visitor<'de>>(number: &Number, visitor: V) -> Result<V::Value, TreeError> {
    match (number.as_u64(), number.as_i64()) {
        (Some(whole), _) => visitor.visit_u64(whole),
        (None, Some(negative)) => visitor.visit_i64(negative),
        // Without serde_json's arbitrary precision a number is one of the three.
        (None, None) => visitor.visit_f64(number.as_f64().unwrap_or(f64::NAN)),
    }
}

/// The error for a value of the wrong kind, in the words of what was expected.
fn wrong_type(found: &Value, expected: &dyn de::Expected) -> TreeError {
    de::Error::invalid_type(unexpected(found), expected)
}

/// An enum written as an object of other than one field.
fn not_one_field() -> TreeError {
    de::Error::invalid_value(Unexpected::Map, &"map with a single key")
}

/// An array's items, every one of which must be read.
fn visit_items<'de, V: Visitor<'de>>(items: Vec<Value>, visitor: V) -> Result<V::Value, TreeError> {
    let count = items.len();
    let mut items = Items(items.into_iter());
    let value = visitor.visit_seq(&mut items)?;
    match items.0.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(count, &"fewer elements in array")),
    }
}

/// An object's fields, every one of which must be read (or skipped by name).
fn visit_fields<'de, V: Visitor<'de>>(
    fields: Map<String, Value>,
    visitor: V,
) -> Result<V::Value, TreeError> {
    let count = fields.len();
    let mut fields = Fields {
        fields: fields.into_iter(),
        value: None,
    };
    let value = visitor.visit_map(&mut fields)?;
    match fields.fields.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(count, &"fewer elements in map")),
    }
}

/// The items of an array not read yet. (No size hint, here or for objects: serde would only
/// reserve room with it, and a scenario's arrays and objects are short.)
struct Items(std::vec::IntoIter<Value>);

impl<'de> SeqAccess<'de> for Items {
    type Error = TreeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, TreeError> {
        self.0
            .next()
            .map(|item| seed.deserialize(Tree(item)))
            .transpose()
    }
}

/// The fields of an object not read yet, and the value of the one whose name was just read.
struct Fields {
    fields: serde_json::map::IntoIter,
    value: Option<Value>,
}

impl<'de> MapAccess<'de> for Fields {
    type Error = TreeError;

    fn next_key_seed<S: DeserializeSeed<'de>>(
        &mut self,
        seed: S,
    ) -> Result<Option<S::Value>, TreeError> {
        let Some((name, value)) = self.fields.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        // Read as a string only: serde_json would also read a number out of a key, but no
        // scenario keys a map by number (the test over every preset would say otherwise).
        let name: StringDeserializer<TreeError> = name.into_deserializer();
        seed.deserialize(name).map(Some)
    }

    fn next_value_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<S::Value, TreeError> {
        match self.value.take() {
            Some(value) => seed.deserialize(Tree(value)),
            None => Err(de::Error::custom("value is missing")),
        }
    }
}

/// How serde names a value it did not expect, in its messages.
fn unexpected(value: &Value) -> Unexpected<'_> {
    match value {
        Value::Null => Unexpected::Unit,
        Value::Bool(flag) => Unexpected::Bool(*flag),
        Value::Number(number) => match (number.as_u64(), number.as_i64()) {
            (Some(whole), _) => Unexpected::Unsigned(whole),
            (None, Some(negative)) => Unexpected::Signed(negative),
            (None, None) => Unexpected::Float(number.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(text) => Unexpected::Str(text),
        Value::Array(_) => Unexpected::Seq,
        Value::Object(_) => Unexpected::Map,
    }
}

/// An enum's variant: its name, and what it carries when written as a one-field object.
struct Variant {
    name: String,
    carried: Carried,
}

/// What a variant carries: nothing when it was written as a bare name.
struct Carried(Option<Value>);

impl<'de> EnumAccess<'de> for Variant {
    type Error = TreeError;
    type Variant = Carried;

    fn variant_seed<S: DeserializeSeed<'de>>(
        self,
        seed: S,
    ) -> Result<(S::Value, Carried), TreeError> {
        let name: StringDeserializer<TreeError> = self.name.into_deserializer();
        Ok((seed.deserialize(name)?, self.carried))
    }
}

impl<'de> VariantAccess<'de> for Carried {
    type Error = TreeError;

    fn unit_variant(self) -> Result<(), TreeError> {
        match self.0 {
            Some(value) => de::Deserialize::deserialize(Tree(value)),
            None => Ok(()),
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, TreeError> {
        match self.0 {
            Some(value) => seed.deserialize(Tree(value)),
            None => Err(unit_variant_for("newtype variant")),
        }
    }

    fn tuple_variant<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        match self.0 {
            Some(Value::Array(items)) if items.is_empty() => visitor.visit_unit(),
            Some(Value::Array(items)) => visit_items(items, visitor),
            Some(other) => Err(wrong_type(&other, &"tuple variant")),
            None => Err(unit_variant_for("tuple variant")),
        }
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, TreeError> {
        match self.0 {
            Some(Value::Object(fields)) => visit_fields(fields, visitor),
            Some(other) => Err(wrong_type(&other, &"struct variant")),
            None => Err(unit_variant_for("struct variant")),
        }
    }
}

/// A variant written as a bare name where it carries something.
fn unit_variant_for(expected: &'static str) -> TreeError {
    de::Error::invalid_type(Unexpected::UnitVariant, &expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::databases::DatabasesWorld;
    use crate::eventtime::EventTimeWorld;
    use crate::exactly_once::EosWorld;
    use crate::family::{Headless, Simulation};
    use crate::invariant::plain_json;
    use crate::joins::JoinsWorld;
    use crate::kafka::World;
    use crate::practice::InkwellWorld;
    use crate::queues::QueuesWorld;
    use crate::replication::ReplicationWorld;
    use serde_json::json;

    /// Reads `tree` as serde_json's own deserializer would and as ours does, and asserts
    /// they agree: the same value, or the same sentence.
    fn agrees<T: DeserializeOwned + PartialEq>(tree: &Value, what: &str) {
        let ours = from_tree::<T>(tree.clone());
        let theirs = serde_json::from_value::<T>(tree.clone()).map_err(|e| e.to_string());
        match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => assert!(ours == theirs, "{what}: read as another value"),
            (Err(ours), Err(theirs)) => assert_eq!(ours.0, theirs, "{what}"),
            (ours, theirs) => panic!(
                "{what}: ours {:?}, serde_json's {:?}",
                ours.err(),
                theirs.err()
            ),
        }
    }

    /// The JSON pointer of every part of `tree`, the whole included.
    fn pointers(tree: &Value, at: String, into: &mut Vec<String>) {
        match tree {
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    pointers(item, format!("{at}/{index}"), into);
                }
            }
            Value::Object(fields) => {
                for (name, value) in fields {
                    pointers(value, format!("{at}/{name}"), into);
                }
            }
            _ => {}
        }
        into.push(at);
    }

    /// Every part of `tree` replaced in turn by values of every kind JSON has (and by an
    /// enum's variant names, bare and as one-field objects), every field left out in turn, and
    /// a field no scenario has added to every object.
    fn damaged(tree: &Value) -> Vec<(String, Value)> {
        let replacements = [
            json!(null),
            json!(false),
            json!(7),
            json!(-3),
            json!(2.5),
            json!("x"),
            json!("Crash"),
            json!({"Crash": null}),
            json!({"Crash": [1]}),
            json!([]),
            json!([1, 2]),
            json!({}),
            json!({"a": 1, "b": 2}),
        ];
        let mut every = Vec::new();
        pointers(tree, String::new(), &mut every);
        let mut damaged = Vec::new();
        for pointer in every {
            for replacement in &replacements {
                let mut copy = tree.clone();
                if let Some(part) = copy.pointer_mut(&pointer) {
                    *part = replacement.clone();
                }
                damaged.push((format!("{pointer} = {replacement}"), copy));
            }
            let mut copy = tree.clone();
            if let Some(Value::Object(fields)) = copy.pointer_mut(&pointer) {
                let names: Vec<String> = fields.keys().cloned().collect();
                fields.insert("no_such_field".into(), json!(1));
                damaged.push((format!("{pointer} plus a field"), copy.clone()));
                for name in names {
                    let mut without = tree.clone();
                    if let Some(Value::Object(fields)) = without.pointer_mut(&pointer) {
                        fields.remove(&name);
                    }
                    damaged.push((format!("{pointer} without {name}"), without));
                }
            }
        }
        damaged
    }

    fn reads_as_serde_json_does<W: Simulation + Headless>() {
        let default = plain_json(&W::Scenario::default());
        for (what, tree) in damaged(&default) {
            agrees::<W::Scenario>(&tree, &what);
        }
        for preset in W::presets() {
            let tree = plain_json(&(preset.build)());
            assert!(
                from_tree::<W::Scenario>(tree.clone()).is_ok_and(|read| read == (preset.build)()),
                "{}",
                preset.slug
            );
            for (what, tree) in damaged(&tree) {
                agrees::<W::Scenario>(&tree, &format!("{}: {what}", preset.slug));
            }
        }
    }

    #[test]
    fn every_family_s_scenarios_read_as_serde_json_reads_them_damaged_or_not() {
        reads_as_serde_json_does::<World>();
        reads_as_serde_json_does::<EventTimeWorld>();
        reads_as_serde_json_does::<QueuesWorld>();
        reads_as_serde_json_does::<ReplicationWorld>();
        reads_as_serde_json_does::<JoinsWorld>();
        reads_as_serde_json_does::<InkwellWorld>();
        reads_as_serde_json_does::<EosWorld>();
        reads_as_serde_json_does::<DatabasesWorld>();
    }

    /// Every shape serde's derive gives an enum's variants (the scenarios have no tuple
    /// variant, and the unit ones are all written bare).
    #[derive(serde::Deserialize, PartialEq)]
    enum Shape {
        Bare,
        Nothing(),
        Pair(u32, u32),
        Wrapped(u32),
        Fields { side: u32 },
    }

    #[test]
    fn every_kind_of_variant_in_every_shape_reads_as_serde_json_reads_it() {
        let names = ["Bare", "Nothing", "Pair", "Wrapped", "Fields", "Other"];
        let carried = [
            json!(null),
            json!(3),
            json!([]),
            json!([1]),
            json!([1, 2]),
            json!([1, 2, 3]),
            json!({}),
            json!({"side": 4}),
            json!({"side": 4, "more": 1}),
            json!("Bare"),
        ];
        for name in names {
            agrees::<Shape>(&json!(name), name);
            for value in &carried {
                agrees::<Shape>(&json!({ name: value }), &format!("{name}: {value}"));
            }
            agrees::<Shape>(
                &json!({ name: 1, "Bare": null }),
                &format!("{name} and Bare"),
            );
        }
        for other in [json!(null), json!(1), json!([]), json!({})] {
            agrees::<Shape>(&other, &other.to_string());
        }
    }

    #[test]
    fn an_error_is_serde_s_sentence() {
        let error = from_tree::<crate::kafka::Scenario>(json!({"seed": "nine"})).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid type: string \"nine\", expected u64"
        );
    }
}
