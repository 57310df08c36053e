//! A loaded Verilated model and its ports.

use crate::bits::element_mask;
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};
use std::path::Path;

use grfgen_hdl::emit::{Port, PortDirection};
use libloading::Library;

use super::VerilatorError;

type NewFn = unsafe extern "C" fn(u32, *const c_char) -> *mut c_void;
type HandleFn = unsafe extern "C" fn(*mut c_void);
type DumpFn = unsafe extern "C" fn(*mut c_void, u64);
type PortFn = unsafe extern "C" fn(*mut c_void, u32) -> *mut c_void;

/// Index of a port of a [`VerilatedModel`], from [`VerilatedModel::port`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PortId(usize);

/// Where a port's value lives inside the model, and how it is stored.
#[derive(Clone, Copy, Debug)]
struct Slot {
    ptr: *mut c_void,
    width: usize,
    direction: PortDirection,
}

/// One running instance of a Verilated design.
///
/// Ports are read and written in place: Verilator keeps a port of up to 8, 16, 32 or 64 bits
/// in an integer of that size and a wider port in 32-bit words, least significant first.
pub struct VerilatedModel {
    handle: *mut c_void,
    eval_fn: HandleFn,
    dump_fn: DumpFn,
    delete_fn: HandleFn,
    slots: Vec<Slot>,
    names: HashMap<String, usize>,
    time: u64,
    // Dropped last: the functions above point into it.
    _library: Library,
}

fn symbol<T: Copy>(library: &Library, name: &str) -> Result<T, VerilatorError> {
    // SAFETY: the symbol types above match the shim's extern "C" signatures.
    unsafe {
        library
            .get::<T>(name.as_bytes())
            .map(|s| *s)
            .map_err(|e| VerilatorError::Load(format!("{name}: {e}")))
    }
}

impl VerilatedModel {
    /// Loads the shared library at `path` and starts a model with `ports` (the port list the
    /// shim was generated from), randomisation seed `seed` and an optional waveform file.
    pub(super) fn load(
        path: &Path,
        ports: &[Port],
        seed: u32,
        trace_path: Option<&Path>,
    ) -> Result<Self, VerilatorError> {
        // SAFETY: loading runs no initialisers beyond Verilator's static constructors.
        let library =
            unsafe { Library::new(path) }.map_err(|e| VerilatorError::Load(e.to_string()))?;
        let new_fn: NewFn = symbol(&library, "grf_new")?;
        let port_fn: PortFn = symbol(&library, "grf_port")?;
        let trace = trace_path
            .map(|p| CString::new(p.to_string_lossy().as_bytes()))
            .transpose()
            .map_err(|e| VerilatorError::Load(e.to_string()))?;
        let trace_ptr = trace.as_ref().map_or(std::ptr::null(), |c| c.as_ptr());
        // SAFETY: grf_new copies what it needs from the path before returning.
        let handle = unsafe { new_fn(seed, trace_ptr) };
        let mut slots = Vec::with_capacity(ports.len());
        for (index, port) in ports.iter().enumerate() {
            // SAFETY: the shim returns the address of port `index` of the live model.
            let ptr = unsafe { port_fn(handle, index as u32) };
            if ptr.is_null() {
                return Err(VerilatorError::Load(format!(
                    "port {} not found",
                    port.name
                )));
            }
            slots.push(Slot {
                ptr,
                width: port.width,
                direction: port.direction,
            });
        }
        Ok(Self {
            handle,
            eval_fn: symbol(&library, "grf_eval")?,
            dump_fn: symbol(&library, "grf_dump")?,
            delete_fn: symbol(&library, "grf_delete")?,
            slots,
            names: ports
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), i))
                .collect(),
            time: 0,
            _library: library,
        })
    }

    /// The port called `name`, or `None` if the design has none.
    pub fn port(&self, name: &str) -> Option<PortId> {
        self.names.get(name).map(|&i| PortId(i))
    }

    /// Width in bits of `port`.
    pub fn width(&self, port: PortId) -> usize {
        self.slots[port.0].width
    }

    /// Drives input `port` (at most 64 bits wide) with `value`, masked to its width.
    pub fn set(&mut self, port: PortId, value: u64) {
        let slot = self.slots[port.0];
        debug_assert_eq!(slot.direction, PortDirection::Input);
        let value = value & element_mask(slot.width);
        // SAFETY: `ptr` addresses the port's storage, whose type follows from its width.
        unsafe {
            match slot.width {
                0..=8 => *(slot.ptr as *mut u8) = value as u8,
                9..=16 => *(slot.ptr as *mut u16) = value as u16,
                17..=32 => *(slot.ptr as *mut u32) = value as u32,
                33..=64 => *(slot.ptr as *mut u64) = value,
                _ => panic!("port wider than 64 bits: use set_words"),
            }
        }
    }

    /// Reads `port` (at most 64 bits wide).
    pub fn get(&self, port: PortId) -> u64 {
        let slot = self.slots[port.0];
        // SAFETY: as in `set`.
        unsafe {
            match slot.width {
                0..=8 => *(slot.ptr as *const u8) as u64,
                9..=16 => *(slot.ptr as *const u16) as u64,
                17..=32 => *(slot.ptr as *const u32) as u64,
                33..=64 => *(slot.ptr as *const u64),
                _ => panic!("port wider than 64 bits: use get_words"),
            }
        }
    }

    /// Drives input `port` of any width from 32-bit words, least significant first.
    pub fn set_words(&mut self, port: PortId, words: &[u32]) {
        let slot = self.slots[port.0];
        if slot.width <= 64 {
            let low = words.first().copied().unwrap_or(0) as u64;
            let high = words.get(1).copied().unwrap_or(0) as u64;
            self.set(port, low | high << 32);
            return;
        }
        let count = slot.width.div_ceil(32);
        // SAFETY: a wide port is `count` consecutive u32 words.
        let storage = unsafe { std::slice::from_raw_parts_mut(slot.ptr as *mut u32, count) };
        for (i, word) in storage.iter_mut().enumerate() {
            *word = words.get(i).copied().unwrap_or(0);
        }
        if slot.width % 32 != 0 {
            storage[count - 1] &= element_mask(slot.width % 32) as u32;
        }
    }

    /// Reads `port` of any width as 32-bit words, least significant first.
    pub fn get_words(&self, port: PortId) -> Vec<u32> {
        let slot = self.slots[port.0];
        if slot.width <= 64 {
            let value = self.get(port);
            return (0..slot.width.div_ceil(32))
                .map(|i| (value >> (32 * i)) as u32)
                .collect();
        }
        // SAFETY: as in `set_words`.
        unsafe { std::slice::from_raw_parts(slot.ptr as *const u32, slot.width.div_ceil(32)) }
            .to_vec()
    }

    /// Evaluates the model: settles combinational logic and runs clocked processes whose clock
    /// changed since the last evaluation. Writes a waveform sample if tracing.
    pub fn eval(&mut self) {
        // SAFETY: the handle is live until drop.
        unsafe {
            (self.eval_fn)(self.handle);
            (self.dump_fn)(self.handle, self.time);
        }
        self.time += 1;
    }
}

impl Drop for VerilatedModel {
    fn drop(&mut self) {
        // SAFETY: the handle came from grf_new and is deleted once.
        unsafe { (self.delete_fn)(self.handle) }
    }
}
