//! The opcode table: every ir3 mnemonic base (the text before the first `.`), its category in
//! the ISA and what the reader does with it.

use grfgen_hdl::params::CoreUnit;

/// Where an operand count comes from, for the memory instructions that move several
/// consecutive components.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Count {
    /// The last operand, an integer field (`ldg r0.x, g[r1.x], 4`).
    Trailing,
    /// A `.N` part of the mnemonic (`ldib.b.untyped.1d.u32.4.imm`); 1 without one.
    Suffix,
    /// A `.N` part of the mnemonic, else one component per dimension of its `.Nd` part
    /// (`resinfo.u32.2d` writes 2).
    Dims,
}

/// What an opcode is to the reader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// cat0 `nop`: dropped, counted in `nops`.
    Nop,
    /// cat0 `end`: dropped, counted in `flow_dropped`; reading stops after the last one.
    End,
    /// cat0 flow (branches, kill, preamble and predicate control): dropped.
    Flow,
    /// cat7 (barriers, fences, cache maintenance, `alias`): dropped.
    Barrier,
    /// A destination, then sources of one component each, on the unit.
    Plain(CoreUnit),
    /// cat5 without coordinates: a write-masked destination, sources of one component.
    Texture,
    /// cat5 with a coordinate vector as its first register source.
    Sample,
    /// cat5 with coordinates and a gradient vector (two per dimension) after them.
    Gradient,
    /// cat6 load: a destination of `Count` components, then its sources.
    Load(CoreUnit, Count),
    /// cat6 store: writes no register; its data operand reads `Count` components.
    Store(CoreUnit, Count),
    /// cat6 atomic: a load of `.N` components, on local memory with `.l`, else global.
    Atomic,
}

/// cat0 besides `nop` and `end`.
const FLOW: &str = "br brao braa brac bany ball brax jump call ret kill demote emit cut chmask chsh \
                    flow_rev bkt stks stkr xset xclr getone getlast dbg shps shpe predt predf prede";

/// cat7.
const BARRIER: &str = "bar fence sleep icinv dccln dcinv dcflu ccinv lock unlock alias";

/// cat1: moves and conversions.
const CAT1: &str = "mov cov movmsk mova mova1 swz gat sct movs";

/// cat2: two-source arithmetic and logic (but `bary` and `flat`).
const CAT2: &str = "add sub mul mull min max absneg and or not xor cmps cmpv floor ceil rndne \
                    rndaz trunc shl shr ashr mgen getbit setrm cbits shb msad bfrev clz sign";

/// cat3: three-source arithmetic.
const CAT3: &str = "mad madsh sel sad shlg shrg shlm shrm andg dp2acc dp4acc wmm";

/// cat6 that touches no memory: the ID reads.
const IDS: &str = "getspid getwid getfiberid";

/// cat4.
const SFU: &str = "rcp rsq log2 exp2 sin cos sqrt hrsq hlog2 hexp2";

/// cat5 without a coordinate vector.
const TEXTURE: &str = "conv convm getsize getbuf getpos getinfo dsx dsy dsxpp dsypp rgetpos \
                       rgetinfo tcinv brcst quad_shuffle";

/// cat5 with a coordinate vector.
const SAMPLE: &str = "isam isaml isamm sam samb saml getlod gather4r gather4g gather4b gather4a";

/// cat5 with coordinates and gradients.
const GRADIENT: &str = "samgq samgp0 samgp1 samgp2 samgp3";

/// cat6 loads, their unit and count.
const LOAD: &[(&str, CoreUnit, Count)] = &[
    ("ldg", CoreUnit::GlobalMem, Count::Trailing),
    ("ldp", CoreUnit::GlobalMem, Count::Trailing),
    ("ldl", CoreUnit::LocalMem, Count::Trailing),
    ("ldlw", CoreUnit::LocalMem, Count::Trailing),
    ("ldlv", CoreUnit::Varying, Count::Trailing),
    ("ldib", CoreUnit::GlobalMem, Count::Suffix),
    ("ldgb", CoreUnit::GlobalMem, Count::Suffix),
    ("ldc", CoreUnit::GlobalMem, Count::Suffix),
    ("resbase", CoreUnit::GlobalMem, Count::Suffix),
    ("resinfo", CoreUnit::GlobalMem, Count::Dims),
];

/// cat6 stores, their unit and count.
const STORE: &[(&str, CoreUnit, Count)] = &[
    ("stg", CoreUnit::GlobalMem, Count::Trailing),
    ("stp", CoreUnit::GlobalMem, Count::Trailing),
    ("sti", CoreUnit::GlobalMem, Count::Trailing),
    ("stc", CoreUnit::GlobalMem, Count::Trailing),
    ("stsc", CoreUnit::GlobalMem, Count::Trailing),
    ("l2g", CoreUnit::GlobalMem, Count::Trailing),
    ("g2l", CoreUnit::GlobalMem, Count::Trailing),
    ("stl", CoreUnit::LocalMem, Count::Trailing),
    ("stlw", CoreUnit::LocalMem, Count::Trailing),
    ("stib", CoreUnit::GlobalMem, Count::Suffix),
    ("stgb", CoreUnit::GlobalMem, Count::Suffix),
    ("prefetch", CoreUnit::GlobalMem, Count::Suffix),
];

/// cat6 that reaches memory but is neither a load nor a store in form.
const GLOBAL: &str = "shfl ray_intersection";

/// The kind of the mnemonic base `base`, `None` when it is no ir3 opcode.
pub(super) fn kind(base: &str) -> Option<Kind> {
    let named = |list: &str| list.split_whitespace().any(|name| name == base);
    let tabled = |list: &[(&str, CoreUnit, Count)]| {
        list.iter()
            .find(|(name, _, _)| *name == base)
            .map(|&(_, unit, count)| (unit, count))
    };
    Some(match base {
        "nop" => Kind::Nop,
        "end" => Kind::End,
        "bary" | "flat" => Kind::Plain(CoreUnit::Varying),
        "atomic" => Kind::Atomic,
        _ if named(FLOW) => Kind::Flow,
        _ if named(BARRIER) => Kind::Barrier,
        _ if named(CAT1) || named(CAT2) || named(CAT3) || named(IDS) => Kind::Plain(CoreUnit::Alu),
        _ if named(SFU) => Kind::Plain(CoreUnit::Sfu),
        _ if named(TEXTURE) => Kind::Texture,
        _ if named(SAMPLE) => Kind::Sample,
        _ if named(GRADIENT) => Kind::Gradient,
        _ if named(GLOBAL) => Kind::Plain(CoreUnit::GlobalMem),
        _ => {
            if let Some((unit, count)) = tabled(LOAD) {
                Kind::Load(unit, count)
            } else {
                let (unit, count) = tabled(STORE)?;
                Kind::Store(unit, count)
            }
        }
    })
}

/// The unit an instruction of `kind` with mnemonic parts `suffixes` (after the base) runs on;
/// `None` for the dropped kinds.
pub(super) fn unit(kind: Kind, suffixes: &[&str]) -> Option<CoreUnit> {
    match kind {
        Kind::Nop | Kind::End | Kind::Flow | Kind::Barrier => None,
        Kind::Plain(unit) | Kind::Load(unit, _) | Kind::Store(unit, _) => Some(unit),
        Kind::Texture | Kind::Sample | Kind::Gradient => Some(CoreUnit::Tex),
        Kind::Atomic if suffixes.contains(&"l") => Some(CoreUnit::LocalMem),
        Kind::Atomic => Some(CoreUnit::GlobalMem),
    }
}
