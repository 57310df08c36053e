//! A loaded Verilated model and its ports.

use crate::bits::element_mask;
use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use grfgen_hdl::emit::{Port, PortDirection};
use libloading::Library;

use super::assertions;
use super::error::VerilatorError;

/// Whether the waveform being written has reached its size limit: no model dumps samples once
/// it is set.
static WAVEFORM_FULL: AtomicBool = AtomicBool::new(false);
/// The cycle before which the waveform stopped, plus one (0: it has not stopped).
static WAVEFORM_STOPPED_AT: AtomicU64 = AtomicU64::new(0);

/// Stops every waveform of this process at its next sample, keeping what it holds: the run
/// goes on, the file is closed whole when the model is dropped.
pub fn stop_waveform() {
    WAVEFORM_FULL.store(true, Ordering::SeqCst);
}

/// The cycle at which a waveform stopped after [`stop_waveform`], if one did.
pub fn waveform_stopped_at() -> Option<u64> {
    WAVEFORM_STOPPED_AT.load(Ordering::SeqCst).checked_sub(1)
}

type NewFn = unsafe extern "C" fn(u32, *const c_char) -> *mut c_void;
type HandleFn = unsafe extern "C" fn(*mut c_void);
type EvalFn = unsafe extern "C" fn(*mut c_void) -> i32;
type MessagesFn = unsafe extern "C" fn() -> *const c_char;
type DumpFn = unsafe extern "C" fn(*mut c_void, u64);
type PortFn = unsafe extern "C" fn(*mut c_void, u32) -> *mut c_void;

/// Where an element's bits live: the integer that holds a port of up to 64 bits, or the first
/// of the 32-bit words of a wider port that the element touches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Storage {
    U8(*mut u8),
    U16(*mut u16),
    U32(*mut u32),
    U64(*mut u64),
    Words(*mut u32),
}

/// Bits `shift..shift + width` of a port's storage, resolved at load into a pointer so that a
/// cycle's reads and writes need no lookup; `model` is the model it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bits {
    model: u64,
    storage: Storage,
    shift: u32,
    width: u32,
}

/// An input of a loaded model (a whole port, or one element of a group), resolved at load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input(Bits);

/// An output of a loaded model (a whole port, or one element of a group), resolved at load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Output(Bits);

/// How the elements of a vector port lie in its storage, for whole-vector reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layout {
    /// The port fits in one integer: it is read or written in one access.
    Packed(Bits),
    /// 32-bit elements, one per word of a wide port.
    Words(*mut u32),
    /// Any other: element by element.
    Elements,
}

/// The elements of a vector port (element 0 lowest), read or written together.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Vector {
    layout: Layout,
    elements: Vec<Bits>,
}

/// The elements of an input vector port, driven together ([`VerilatedModel::set_vector`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputVector(Vector);

/// The elements of an output vector port, read together ([`VerilatedModel::read_vector`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputVector(Vector);

/// The identity of the next model loaded: an [`Input`] or [`Output`] is used only on its own.
static NEXT_MODEL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

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
    /// This model's identity, which its inputs and outputs carry.
    id: u64,
    top: String,
    names: HashMap<String, usize>,
    /// The waveform's time of the next evaluation, in ps.
    time: u64,
    /// Picoseconds per evaluation: half a clock period.
    step: u64,
    /// Whether a waveform is written (each evaluation then dumps a sample).
    tracing: bool,
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
        let _ = assertions::take_assertion();
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
            id: NEXT_MODEL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            top: top.to_string(),
            names: ports
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.clone(), i))
                .collect(),
            time: 0,
            step: start.half_period_ps,
            tracing: trace_path.is_some(),
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
        let bits = |slot: usize, lsb: usize, width: usize| {
            let slot = self.slots[slot];
            let (storage, shift) = match slot.width {
                0..=8 => (Storage::U8(slot.ptr.cast()), lsb),
                9..=16 => (Storage::U16(slot.ptr.cast()), lsb),
                17..=32 => (Storage::U32(slot.ptr.cast()), lsb),
                33..=64 => (Storage::U64(slot.ptr.cast()), lsb),
                // SAFETY: word `lsb / 32` is inside the port's `ceil(width / 32)` words.
                _ => (
                    Storage::Words(unsafe { slot.ptr.cast::<u32>().add(lsb / 32) }),
                    lsb % 32,
                ),
            };
            Bits {
                model: self.id,
                storage,
                shift: shift as u32,
                width: width.min(64) as u32,
            }
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
        let width = self.slots[slot].width;
        let Some(count) = count else {
            return Ok(vec![bits(slot, 0, width)]);
        };
        if count == 0 || !width.is_multiple_of(count) {
            return Err(missing(format!("{name} as {count} equal elements")));
        }
        let element = width / count;
        Ok((0..count)
            .map(|i| bits(slot, i * element, element))
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

    /// The `count` elements of vector port `name`, as one vector.
    fn vector(
        &self,
        name: &str,
        count: usize,
        direction: PortDirection,
    ) -> Result<Vector, VerilatorError> {
        let elements = self.resolve(name, Some(count), direction)?;
        let whole = self.resolve(name, None, direction)?[0];
        let port_width = self.slots[self.names[name]].width;
        let layout = match (port_width, whole.storage) {
            (0..=64, _) => Layout::Packed(whole),
            (_, Storage::Words(p)) if port_width == 32 * count => Layout::Words(p),
            _ => Layout::Elements,
        };
        Ok(Vector { layout, elements })
    }

    /// The `count` elements of input vector port `name`, driven together.
    pub fn input_vector(&self, name: &str, count: usize) -> Result<InputVector, VerilatorError> {
        Ok(InputVector(self.vector(
            name,
            count,
            PortDirection::Input,
        )?))
    }

    /// The `count` elements of output vector port `name`, read together.
    pub fn output_vector(&self, name: &str, count: usize) -> Result<OutputVector, VerilatorError> {
        Ok(OutputVector(self.vector(
            name,
            count,
            PortDirection::Output,
        )?))
    }

    /// Drives the elements of `vector` with `values`, element 0 first, each masked to its
    /// width; elements past the end of `values` keep their value.
    pub fn set_vector(&mut self, vector: &InputVector, values: impl IntoIterator<Item = u64>) {
        let Vector { layout, elements } = &vector.0;
        self.owns(elements[0]);
        match *layout {
            Layout::Packed(whole) => {
                let mut packed = 0;
                let mut given = 0;
                for (bits, value) in elements.iter().zip(values) {
                    packed |= (value & element_mask(bits.width as usize)) << bits.shift;
                    given |= element_mask(bits.width as usize) << bits.shift;
                }
                // SAFETY: the bits were resolved on this live model, borrowed mutably.
                unsafe {
                    let kept = whole.read() & !given;
                    whole.write(kept | packed);
                }
            }
            Layout::Words(p) => {
                for (i, value) in values.into_iter().take(elements.len()).enumerate() {
                    // SAFETY: word `i` of the port's `count` words.
                    unsafe { *p.add(i) = value as u32 }
                }
            }
            // SAFETY: as above.
            Layout::Elements => {
                (elements.iter().zip(values)).for_each(|(bits, value)| unsafe { bits.write(value) })
            }
        }
    }

    /// Reads every element of `vector` into `values`, element 0 first (as many as both hold).
    pub fn read_vector(&self, vector: &OutputVector, values: &mut [u64]) {
        let Vector { layout, elements } = &vector.0;
        self.owns(elements[0]);
        let values = values.iter_mut().zip(elements);
        match *layout {
            Layout::Packed(whole) => {
                // SAFETY: the bits were resolved on this live model.
                let packed = unsafe { whole.read() };
                for (value, bits) in values {
                    *value = (packed >> bits.shift) & element_mask(bits.width as usize);
                }
            }
            Layout::Words(p) => {
                for (i, (value, _)) in values.enumerate() {
                    // SAFETY: word `i` of the port's `count` words.
                    *value = u64::from(unsafe { *p.add(i) });
                }
            }
            // SAFETY: as above.
            Layout::Elements => values.for_each(|(value, bits)| *value = unsafe { bits.read() }),
        }
    }

    /// Width in bits of an element (at most 64: a wider port is accessed in its low 64 bits).
    pub fn width(&self, input: Input) -> usize {
        input.0.width as usize
    }

    /// Drives `input` with `value`, masked to its width.
    pub fn set(&mut self, input: Input, value: u64) {
        self.owns(input.0);
        // SAFETY: the bits were resolved on this live model, which is borrowed mutably.
        unsafe { input.0.write(value) }
    }

    /// Reads `output`.
    pub fn get(&self, output: Output) -> u64 {
        self.owns(output.0);
        // SAFETY: the bits were resolved on this live model.
        unsafe { output.0.read() }
    }

    /// Checks that `bits` were resolved on this model, so that their pointer is into it.
    fn owns(&self, bits: Bits) {
        assert_eq!(bits.model, self.id, "a port of another Verilated model");
    }

    /// Evaluates the model: settles combinational logic and runs clocked processes whose clock
    /// changed since the last evaluation. Writes a waveform sample if tracing.
    /// A simulation-only assertion that fails (a `$error`) is recorded for the lock-step loop
    /// to report ([`assertions::take_assertion`]).
    pub fn eval(&mut self) {
        // SAFETY: the handle is live until drop.
        let failed = unsafe {
            let failed = (self.eval_fn)(self.handle);
            if self.tracing && WAVEFORM_FULL.load(Ordering::Relaxed) {
                // Two evaluations a cycle, half a period each.
                let cycle = self.time / (2 * self.step.max(1));
                WAVEFORM_STOPPED_AT.store(cycle + 1, Ordering::SeqCst);
                self.tracing = false;
            }
            if self.tracing {
                (self.dump_fn)(self.handle, self.time);
            }
            failed
        };
        self.time += self.step;
        if failed != 0 {
            // SAFETY: the shim returns its own NUL-terminated buffer, alive until the next print.
            let printed = unsafe { std::ffi::CStr::from_ptr((self.messages_fn)()) };
            assertions::record_assertion(&printed.to_string_lossy());
        }
    }
}

impl Bits {
    /// The element's value.
    ///
    /// # Safety
    /// The storage must be a live model's port and the element inside it.
    #[inline]
    unsafe fn read(self) -> u64 {
        let shift = self.shift;
        let raw = match self.storage {
            Storage::U8(p) => u64::from(*p) >> shift,
            Storage::U16(p) => u64::from(*p) >> shift,
            Storage::U32(p) => u64::from(*p) >> shift,
            Storage::U64(p) => *p >> shift,
            Storage::Words(p) => (words(p, shift + self.width) >> shift) as u64,
        };
        raw & element_mask(self.width as usize)
    }

    /// Stores `value`, masked to the element's width, leaving the port's other bits alone.
    ///
    /// # Safety
    /// As [`Bits::read`].
    #[inline]
    unsafe fn write(self, value: u64) {
        let mask = element_mask(self.width as usize);
        let (shift, value) = (self.shift, value & mask);
        let merged = |old: u64| (old & !(mask << shift)) | (value << shift);
        match self.storage {
            Storage::U8(p) => *p = merged(u64::from(*p)) as u8,
            Storage::U16(p) => *p = merged(u64::from(*p)) as u16,
            Storage::U32(p) => *p = merged(u64::from(*p)) as u32,
            Storage::U64(p) => *p = merged(*p),
            Storage::Words(p) if shift == 0 && self.width == 32 => *p = value as u32,
            Storage::Words(p) => {
                let end = shift + self.width;
                let wide = u128::from(mask) << shift;
                let old = words(p, end);
                let new = (old & !wide) | (u128::from(value) << shift);
                for i in 0..end.div_ceil(32) as usize {
                    *p.add(i) = (new >> (32 * i)) as u32;
                }
            }
        }
    }
}

/// The words from `p` that hold bits `0..end` (`end` at most 96), least significant first.
///
/// # Safety
/// The `ceil(end / 32)` words from `p` must be inside a live model's port.
unsafe fn words(p: *const u32, end: u32) -> u128 {
    let mut value = u128::from(*p);
    if end > 32 {
        value |= u128::from(*p.add(1)) << 32;
    }
    if end > 64 {
        value |= u128::from(*p.add(2)) << 64;
    }
    value
}

impl Drop for VerilatedModel {
    fn drop(&mut self) {
        // SAFETY: the handle came from grf_new and is deleted once.
        unsafe { (self.delete_fn)(self.handle) }
    }
}
