//! Values keyed by register number, for the passes of the compiler and the interpreter over a
//! program: a vector indexed by number while the numbers stay low, else a hash map (a program
//! may name any register up to `MAX_REGISTER`). A map is emptied for each program and keeps
//! its storage, so that passes over many programs in a row allocate little.

use std::collections::HashMap;

/// Register numbers per instruction of the program that a map holds in its vector (an
/// instruction names at most three registers); a program naming higher numbers has a hash map.
const DENSE_NUMBERS_PER_INSTR: usize = 4;

/// Values keyed by register number.
#[derive(Debug, Default)]
pub struct RegisterMap<V> {
    /// Indexed by number, while every number inserted is below `limit`; then empty.
    dense: Vec<Option<V>>,
    /// Keyed by number, once a number at or above `limit` was inserted: then every value.
    sparse: HashMap<usize, V>,
    /// The numbers `dense` may hold are those below it.
    limit: usize,
    /// Whether the values are in `sparse`.
    is_sparse: bool,
}

impl<V: Copy> RegisterMap<V> {
    /// Empties the map for a pass over a program of `instructions` instructions.
    pub fn clear(&mut self, instructions: usize) {
        self.limit = DENSE_NUMBERS_PER_INSTR * instructions;
        // Emptied in place: the next program likely names the same numbers.
        self.dense.truncate(self.limit);
        self.dense.fill(None);
        self.sparse.clear();
        self.is_sparse = false;
    }

    /// The value of register `n`, if any.
    #[inline]
    pub fn get(&self, n: usize) -> Option<V> {
        match self.dense.get(n) {
            Some(&value) => value,
            None if self.is_sparse => self.sparse.get(&n).copied(),
            None => None,
        }
    }

    /// Sets the value of register `n`.
    #[inline]
    pub fn insert(&mut self, n: usize, value: V) {
        match self.dense.get_mut(n) {
            Some(slot) => *slot = Some(value),
            None => self.insert_beyond(n, value),
        }
    }

    /// Sets the value of register `n`, beyond the vector: grows it, or moves every value to
    /// the hash map.
    fn insert_beyond(&mut self, n: usize, value: V) {
        if self.is_sparse {
            self.sparse.insert(n, value);
        } else if n < self.limit {
            self.dense.resize(n + 1, None);
            self.dense[n] = Some(value);
        } else {
            let numbered = self.dense.drain(..).enumerate();
            let values = numbered.filter_map(|(number, v)| Some((number, v?)));
            self.sparse.extend(values);
            self.sparse.insert(n, value);
            self.is_sparse = true;
        }
    }
}
