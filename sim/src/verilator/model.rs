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
type EvalFn = unsafe extern "C" fn(*mut c_void) -> i32;
type MessagesFn = unsafe extern "C" fn() -> *const c_char;
type DumpFn = unsafe extern "C" fn(*mut c_void, u64);
type PortFn = unsafe extern "C" fn(*mut c_void, u32) -> *mut c_void;

/// Bits `lsb..lsb + width` of a port of a [`VerilatedModel`]: a whole port, or one element
/// of a port group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bits {
    slot: usize,
    lsb: usize,
    width: usize,
}

/// An input of a loaded model (a whole port, or one element of a group), resolved at load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input(Bits);

/// An output of a loaded model (a whole port, or one element of a group), resolved at load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output(Bits);

/// Where a port's value lives inside the model, and how it is stored.
#[derive(Clone, Copy, Debug)]
struct Slot {
    ptr: *mut c_void,
    width: usize,
    direction: PortDirection,
}

/// How a model starts: its randomisation seed, its waveform file if any, and the waveform's
/// time per evaluation.
pub(super) struct Start<'a> {
    /// Seed of Verilator's randomisation.
    pub seed: u32,
    /// The waveform file to write, if any.
    pub trace: Option<&'a Path>,
    /// Picoseconds of waveform time per evaluation (half a clock period).
    pub half_period_ps: u64,
}

/// One running instance of a Verilated design.
///
/// Ports are read and written in place: Verilator keeps a port of up to 8, 16, 32 or 64 bits
/// in an integer of that size and a wider port in 32-bit words, least significant first.
pub struct VerilatedModel {
    handle: *mut c_void,
    eval_fn: EvalFn,
    messages_fn: MessagesFn,
    dump_fn: DumpFn,
    delete_fn: HandleFn,
    slots: Vec<Slot>,
    top: String,
    names: HashMap<String, usize>,
    /// The waveform's time of the next evaluation, in ps.
    time: u64,
    /// Picoseconds per evaluation: half a clock period.
    step: u64,
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
    /// shim was generated from) as `start` says.
    pub(super) fn load(
        path: &Path,
        top: &str,
        ports: &[Port],
        start: &Start,
    ) -> Result<Self, VerilatorError> {
        let (seed, trace_path) = (start.seed, start.trace);
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
        // An assertion another model on this thread left unreported is not this model's.
        let _ = crate::check::take_assertion();
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
            messages_fn: symbol(&library, "grf_messages")?,
            dump_fn: symbol(&library, "grf_dump")?,
            delete_fn: symbol(&library, "grf_delete")?,
            slots,
            top: top.to_string(),
            names: ports
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), i))
                .collect(),
            time: 0,
            step: start.half_period_ps,
            _library: library,
        })
    }

    /// The bits of port `name`: `count` equal slices of it (element 0 lowest), or the whole
    /// port when `count` is `None`.
    fn resolve(
        &self,
        name: &str,
        count: Option<usize>,
        direction: PortDirection,
    ) -> Result<Vec<Bits>, VerilatorError> {
        let missing = |what: String| VerilatorError::MissingPort {
            top: self.top.clone(),
            port: what,
        };
        let whole = |slot: usize| Bits {
            slot,
            lsb: 0,
            width: self.slots[slot].width,
        };
        let found = |port: &str| -> Result<usize, VerilatorError> {
            let slot = *self
                .names
                .get(port)
                .ok_or_else(|| missing(port.to_string()))?;
            if self.slots[slot].direction != direction {
                return Err(missing(
                    format!("{port} as an {direction:?}").to_lowercase(),
                ));
            }
            Ok(slot)
        };
        let slot = found(name)?;
        let Some(count) = count else {
            return Ok(vec![whole(slot)]);
        };
        let width = self.slots[slot].width;
        if count == 0 || !width.is_multiple_of(count) {
            return Err(missing(format!("{name} as {count} equal elements")));
        }
        let element = width / count;
        Ok((0..count)
            .map(|i| Bits {
                slot,
                lsb: i * element,
                width: element,
            })
            .collect())
    }

    /// The input port `name`; an error naming it if the design has none.
    pub fn input(&self, name: &str) -> Result<Input, VerilatorError> {
        Ok(Input(self.resolve(name, None, PortDirection::Input)?[0]))
    }

    /// The output port `name`; an error naming it if the design has none.
    pub fn output(&self, name: &str) -> Result<Output, VerilatorError> {
        Ok(Output(self.resolve(name, None, PortDirection::Output)?[0]))
    }

    /// The `count` elements of input group `name` (see the packing rules of `resolve`).
    pub fn inputs(&self, name: &str, count: usize) -> Result<Vec<Input>, VerilatorError> {
        let bits = self.resolve(name, Some(count), PortDirection::Input)?;
        Ok(bits.into_iter().map(Input).collect())
    }

    /// The `count` elements of output group `name`.
    pub fn outputs(&self, name: &str, count: usize) -> Result<Vec<Output>, VerilatorError> {
        let bits = self.resolve(name, Some(count), PortDirection::Output)?;
        Ok(bits.into_iter().map(Output).collect())
    }

    /// Width in bits of an element.
    pub fn width(&self, input: Input) -> usize {
        input.0.width
    }

    /// Drives `input` with `value`, masked to its width.
    pub fn set(&mut self, input: Input, value: u64) {
        let Bits { slot, lsb, width } = input.0;
        let slot = self.slots[slot];
        let value = value & element_mask(width);
        if slot.width <= 64 {
            let mask = element_mask(width) << lsb;
            let old = read_scalar(slot);
            write_scalar(slot, (old & !mask) | (value << lsb));
            return;
        }
        let mut window = Window::of(slot, lsb);
        let mask = u128::from(element_mask(width)) << window.shift;
        window.value = (window.value & !mask) | (u128::from(value) << window.shift);
        window.store(slot);
    }

    /// Reads `output`.
    pub fn get(&self, output: Output) -> u64 {
        self.read(output.0)
    }

    /// Reads `bits` of a port.
    fn read(&self, bits: Bits) -> u64 {
        let Bits { slot, lsb, width } = bits;
        let slot = self.slots[slot];
        if slot.width <= 64 {
            return (read_scalar(slot) >> lsb) & element_mask(width);
        }
        let window = Window::of(slot, lsb);
        (window.value >> window.shift) as u64 & element_mask(width)
    }

    /// Evaluates the model: settles combinational logic and runs clocked processes whose clock
    /// changed since the last evaluation. Writes a waveform sample if tracing.
    /// A simulation-only assertion that fails (a `$error`) is recorded for the lock-step loop
    /// to report ([`crate::check::take_assertion`]).
    pub fn eval(&mut self) {
        // SAFETY: the handle is live until drop.
        let failed = unsafe {
            let failed = (self.eval_fn)(self.handle);
            (self.dump_fn)(self.handle, self.time);
            failed
        };
        self.time += self.step;
        if failed != 0 {
            // SAFETY: the shim returns its own NUL-terminated buffer, alive until the next print.
            let printed = unsafe { std::ffi::CStr::from_ptr((self.messages_fn)()) };
            crate::check::record_assertion(&printed.to_string_lossy());
        }
    }
}

/// Up to three 32-bit words of a port wider than 64 bits, around a slice starting at bit
/// `shift` of the first of them (an element is at most 64 bits, so three words hold it).
struct Window {
    first: usize,
    shift: usize,
    value: u128,
}

impl Window {
    /// The words of `slot` around bit `lsb`.
    fn of(slot: Slot, lsb: usize) -> Self {
        let words = words(slot);
        let first = lsb / 32;
        let value = (0..3)
            .filter_map(|i| words.get(first + i).map(|&w| u128::from(w) << (32 * i)))
            .fold(0, |acc, w| acc | w);
        Self {
            first,
            shift: lsb % 32,
            value,
        }
    }

    /// Writes the words back into `slot`.
    fn store(&self, slot: Slot) {
        let words = words_mut(slot);
        for i in 0..3 {
            if let Some(word) = words.get_mut(self.first + i) {
                *word = (self.value >> (32 * i)) as u32;
            }
        }
    }
}

/// The words of a port wider than 64 bits, least significant first.
fn words<'a>(slot: Slot) -> &'a [u32] {
    // SAFETY: a port wider than 64 bits is `ceil(width / 32)` consecutive u32 words, alive
    // as long as the model.
    unsafe { std::slice::from_raw_parts(slot.ptr as *const u32, slot.width.div_ceil(32)) }
}

/// The words of a port wider than 64 bits, to write.
fn words_mut<'a>(slot: Slot) -> &'a mut [u32] {
    // SAFETY: as in `words`; the model is borrowed mutably by the caller.
    unsafe { std::slice::from_raw_parts_mut(slot.ptr as *mut u32, slot.width.div_ceil(32)) }
}

/// The value of a port of at most 64 bits.
fn read_scalar(slot: Slot) -> u64 {
    // SAFETY: `ptr` addresses the port's storage, whose type follows from its width.
    unsafe {
        match slot.width {
            0..=8 => *(slot.ptr as *const u8) as u64,
            9..=16 => *(slot.ptr as *const u16) as u64,
            17..=32 => *(slot.ptr as *const u32) as u64,
            _ => *(slot.ptr as *const u64),
        }
    }
}

/// Stores `value` in a port of at most 64 bits.
fn write_scalar(slot: Slot, value: u64) {
    // SAFETY: as in `read_scalar`.
    unsafe {
        match slot.width {
            0..=8 => *(slot.ptr as *mut u8) = value as u8,
            9..=16 => *(slot.ptr as *mut u16) = value as u16,
            17..=32 => *(slot.ptr as *mut u32) = value as u32,
            _ => *(slot.ptr as *mut u64) = value,
        }
    }
}

impl Drop for VerilatedModel {
    fn drop(&mut self) {
        // SAFETY: the handle came from grf_new and is deleted once.
        unsafe { (self.delete_fn)(self.handle) }
    }
}
