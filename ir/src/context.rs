//! The `Context`: owner of every operation, block, region, type, attribute and
//! interned string. Everything else is a small `Copy` handle into it.

use std::hash::Hash;

use rustc_hash::FxHashMap;

use crate::attributes::AttrKind;
use crate::dialect::DialectRegistry;
use crate::ir::{BlockData, OperationData, RegionData};
use crate::types::TypeKind;

macro_rules! handle {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u32);

        impl $name {
            /// The arena index of this handle (stable for the life of the context).
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

handle!(
    /// An interned type; equality is type equality.
    Type
);
handle!(
    /// An interned attribute (locations are attributes too); equality is attribute equality.
    Attribute
);
handle!(
    /// An interned string: operation names, attribute names, dialect names.
    Ident
);
handle!(
    /// An operation in the context's arena.
    Operation
);
handle!(
    /// A block in the context's arena.
    Block
);
handle!(
    /// A region in the context's arena.
    Region
);

/// The value of a resource entry in the file metadata section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResourceValue {
    /// `true` / `false`.
    Bool(bool),
    /// A string (bytes, as MLIR strings may hold any).
    String(Vec<u8>),
    /// A `"0x..."` blob: a 4-byte alignment header, then the data.
    Blob(Vec<u8>),
}

/// A location is an attribute whose kind is `AttrKind::Location`.
pub type Location = Attribute;

/// A hash-consing table: each distinct value is stored once and named by its
/// index. Values are kept only in `items`; the map goes from hash to the first
/// id with that hash, and `chain` links ids whose hashes collide.
pub(crate) struct Interner<T: Eq + Hash> {
    items: Vec<T>,
    heads: FxHashMap<u64, u32>,
    chain: Vec<u32>,
}

const NO_ID: u32 = u32::MAX;

impl<T: Eq + Hash> Default for Interner<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            heads: FxHashMap::default(),
            chain: Vec::new(),
        }
    }
}

fn hash_of<T: Hash + ?Sized>(item: &T) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(item)
}

impl<T: Eq + Hash> Interner<T> {
    pub(crate) fn intern(&mut self, item: T) -> u32 {
        let hash = hash_of(&item);
        let head = self.heads.get(&hash).copied().unwrap_or(NO_ID);
        let mut current = head;
        while current != NO_ID {
            if self.items[current as usize] == item {
                return current;
            }
            current = self.chain[current as usize];
        }
        let id = self.items.len() as u32;
        self.items.push(item);
        self.chain.push(head);
        self.heads.insert(hash, id);
        id
    }

    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    pub(crate) fn get(&self, id: u32) -> &T {
        &self.items[id as usize]
    }

    /// The id of a value equal to `item`, if interned (`Q` hashes like `T`).
    pub(crate) fn lookup<Q>(&self, item: &Q) -> Option<u32>
    where
        T: std::borrow::Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let mut current = self.heads.get(&hash_of(item)).copied().unwrap_or(NO_ID);
        while current != NO_ID {
            if self.items[current as usize].borrow() == item {
                return Some(current);
            }
            current = self.chain[current as usize];
        }
        None
    }
}

/// Owns all IR objects. Not `Sync`: one context per thread of work.
pub struct Context {
    pub(crate) idents: Interner<Box<str>>,
    pub(crate) types: Interner<TypeKind>,
    pub(crate) attrs: Interner<AttrKind>,
    pub(crate) ops: Vec<OperationData>,
    pub(crate) blocks: Vec<BlockData>,
    pub(crate) regions: Vec<RegionData>,
    pub(crate) registry: DialectRegistry,
    allow_unregistered_dialects: bool,
    /// `dense_resource` blobs of the builtin dialect, by key.
    resources: rustc_hash::FxHashMap<Ident, Box<[u8]>>,
    /// `external_resources` entries, kept to be printed back, by group.
    external_resources: Vec<(String, Vec<(String, ResourceValue)>)>,
    next_distinct: u64,
    /// The registry slot of the op each ident names (`u32::MAX`: none), so
    /// that finding an op's definition needs no string hashing; valid while
    /// `ident_ops_epoch == registry_epoch`.
    pub(crate) ident_ops: Vec<u32>,
    pub(crate) ident_ops_epoch: u64,
    pub(crate) registry_epoch: u64,
    /// `--pass-bisect-limit`: the numbered steps of the passes run now.
    pub(crate) bisect: Option<Box<crate::pass::Bisect>>,
}

impl Default for Context {
    fn default() -> Self {
        Self::new()
    }
}

impl Context {
    /// A context with the builtin dialect registered.
    pub fn new() -> Self {
        let mut ctx = Context {
            idents: Interner::default(),
            types: Interner::default(),
            attrs: Interner::default(),
            ops: Vec::new(),
            blocks: Vec::new(),
            regions: Vec::new(),
            registry: DialectRegistry::default(),
            allow_unregistered_dialects: false,
            resources: rustc_hash::FxHashMap::default(),
            external_resources: Vec::new(),
            next_distinct: 0,
            ident_ops: Vec::new(),
            ident_ops_epoch: 0,
            registry_epoch: 0,
            bisect: None,
        };
        crate::builtin::register(&mut ctx);
        ctx
    }

    /// Whether operations, types and attributes of unknown dialects are accepted
    /// (mlir-opt's `--allow-unregistered-dialect`).
    pub fn allows_unregistered_dialects(&self) -> bool {
        self.allow_unregistered_dialects
    }

    /// Accept (or reject) operations of dialects that are not registered.
    pub fn set_allow_unregistered_dialects(&mut self, allow: bool) {
        self.allow_unregistered_dialects = allow;
    }

    /// Intern a string.
    pub fn ident(&mut self, s: &str) -> Ident {
        let id = match self.idents.lookup(s) {
            Some(id) => id,
            None => self.idents.intern(Box::from(s)),
        };
        self.sync_ident_ops();
        Ident(id)
    }

    /// Bring the ident -> op definition table up to date: resolve new
    /// idents, or all of them after the registry changed.
    fn sync_ident_ops(&mut self) {
        if self.ident_ops_epoch != self.registry_epoch {
            self.ident_ops.clear();
            self.ident_ops_epoch = self.registry_epoch;
        }
        while self.ident_ops.len() < self.idents.len() {
            let name = self.idents.get(self.ident_ops.len() as u32);
            let slot = self.registry.index_of(name).map_or(u32::MAX, |i| i as u32);
            self.ident_ops.push(slot);
        }
    }

    /// The text of an interned string.
    pub fn ident_str(&self, id: Ident) -> &str {
        self.idents.get(id.0)
    }

    /// Intern a type.
    pub fn intern_type(&mut self, kind: TypeKind) -> Type {
        Type(self.types.intern(kind))
    }

    /// What a type is.
    pub fn type_kind(&self, ty: Type) -> &TypeKind {
        self.types.get(ty.0)
    }

    /// Intern an attribute.
    pub fn intern_attr(&mut self, kind: AttrKind) -> Attribute {
        Attribute(self.attrs.intern(kind))
    }

    /// What an attribute is.
    pub fn attr_kind(&self, attr: Attribute) -> &AttrKind {
        self.attrs.get(attr.0)
    }

    /// The attribute if it already exists, without interning it.
    pub fn lookup_attr(&self, kind: &AttrKind) -> Option<Attribute> {
        self.attrs.lookup(kind).map(Attribute)
    }

    /// The dialect registry (registered operations and their definitions).
    pub fn registry(&self) -> &DialectRegistry {
        &self.registry
    }

    /// Mutable access to the registry, to register dialects.
    pub fn registry_mut(&mut self) -> &mut DialectRegistry {
        self.registry_epoch += 1;
        &mut self.registry
    }

    /// The blob of a `dense_resource` key: its 4-byte alignment header and
    /// the element data, as written in the `dialect_resources` section.
    pub fn resource_blob(&self, key: Ident) -> Option<&[u8]> {
        self.resources.get(&key).map(|b| &b[..])
    }

    /// Define (or replace) the blob of a `dense_resource` key.
    pub fn set_resource_blob(&mut self, key: Ident, blob: Vec<u8>) {
        self.resources.insert(key, blob.into());
    }

    /// The `external_resources` of the parsed file, by group, in order.
    pub fn external_resources(&self) -> &[(String, Vec<(String, ResourceValue)>)] {
        &self.external_resources
    }

    /// Add (or replace) an `external_resources` entry.
    pub fn set_external_resource(&mut self, group: &str, key: &str, value: ResourceValue) {
        let index = match self.external_resources.iter().position(|(g, _)| g == group) {
            Some(i) => i,
            None => {
                self.external_resources
                    .push((group.to_string(), Vec::new()));
                self.external_resources.len() - 1
            }
        };
        let entries = &mut self.external_resources[index].1;
        match entries.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = value,
            None => entries.push((key.to_string(), value)),
        }
    }

    /// A fresh identity for a `distinct` attribute.
    pub fn next_distinct_id(&mut self) -> u64 {
        self.next_distinct += 1;
        self.next_distinct
    }

    /// Number of operations ever created (including erased ones).
    pub fn num_operations_allocated(&self) -> usize {
        self.ops.len()
    }
}
