//! The native GPU runner: PTX text handed to the CUDA driver, which compiles
//! it for the GPU at hand, and kernels launched with their operands in device
//! memory. The driver library is opened at run time (cudarc's dynamic
//! loading), so ptxcheck builds, and every other command runs, on a machine
//! with no GPU and no CUDA toolkit; there `hw run` and `hw sweep` say in one
//! line that no driver was found.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use serde::{Deserialize, Serialize};

use crate::error::Error;

/// What the results were measured on: recorded with them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeviceInfo {
    /// The device's name, as the driver gives it.
    pub name: String,
    /// `sm_90` for compute capability 9.0.
    pub target: String,
    /// The CUDA version the driver implements (`cuDriverGetVersion`), e.g. `13.0`.
    pub cuda_driver_api: String,
    /// The kernel module's release (`580.159.04`), where the system tells it.
    pub driver_release: Option<String>,
}

impl DeviceInfo {
    /// One line: `NVIDIA H100 80GB HBM3 (sm_90), driver 580.159.04, CUDA 13.0 driver API`.
    pub fn line(&self) -> String {
        let release = self.driver_release.as_deref().map(|r| format!("driver {r}, ")).unwrap_or_default();
        format!("{} ({}), {release}CUDA {} driver API", self.name, self.target, self.cuda_driver_api)
    }
}

/// The first GPU, with a context and a stream on it.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    pub info: DeviceInfo,
}

fn driver_error(what: &str) -> impl Fn(cudarc::driver::DriverError) -> Error + '_ {
    move |e| Error::Tool(format!("the CUDA driver failed {what}: {e}"))
}

/// The kernel module's release from `/proc/driver/nvidia/version` (Linux).
fn driver_release() -> Option<String> {
    let text = std::fs::read_to_string("/proc/driver/nvidia/version").ok()?;
    let line = text.lines().next()?;
    // `NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04
    // Release Build ...`: the first word of digits and dots.
    line.split_whitespace()
        .find(|w| w.contains('.') && w.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .map(str::to_string)
}

impl Gpu {
    /// Open GPU 0. Without a driver library this is a one-line error, not
    /// cudarc's panic: the library is looked for first.
    pub fn open() -> Result<Gpu, Error> {
        // SAFETY: only tries to open the library by its usual names.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(Error::Tool(
                "no CUDA driver found (libcuda.so.1): `hw run`, `hw sweep` and `conform --gpu` need an NVIDIA GPU and its driver".into(),
            ));
        }
        let ctx = CudaContext::new(0).map_err(driver_error("to open GPU 0"))?;
        let name = ctx.name().map_err(driver_error("to name the device"))?;
        let (major, minor) = ctx.compute_capability().map_err(driver_error("to give the compute capability"))?;
        let mut version = 0;
        // SAFETY: the driver writes one int.
        let status = unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) };
        let cuda_driver_api = match status.result() {
            Ok(()) => format!("{}.{}", version / 1000, version % 1000 / 10),
            Err(_) => "unknown".into(),
        };
        let info = DeviceInfo {
            name,
            target: format!("sm_{major}{minor}"),
            cuda_driver_api,
            driver_release: driver_release(),
        };
        let stream = ctx.default_stream();
        Ok(Gpu { ctx, stream, info })
    }

    /// Load a PTX module: the driver compiles it for this GPU.
    pub fn load(&self, ptx: &str) -> Result<Arc<CudaModule>, Error> {
        self.ctx.load_module(Ptx::from_src(ptx)).map_err(driver_error("to compile a PTX module"))
    }

    /// A kernel of a loaded module.
    pub fn kernel(&self, module: &Arc<CudaModule>, name: &str) -> Result<CudaFunction, Error> {
        module.load_function(name).map_err(|e| Error::Tool(format!("the CUDA driver has no kernel {name}: {e}")))
    }

    /// Device memory holding `words`.
    pub fn upload(&self, words: &[u64]) -> Result<CudaSlice<u64>, Error> {
        // A zero-length allocation is refused: hold one word at least.
        if words.is_empty() {
            return self.zeros(1);
        }
        self.stream.clone_htod(words).map_err(driver_error("to copy inputs to the GPU"))
    }

    /// Device memory of `n` zero words.
    pub fn zeros(&self, n: usize) -> Result<CudaSlice<u64>, Error> {
        self.stream.alloc_zeros::<u64>(n.max(1)).map_err(driver_error("to allocate device memory"))
    }

    /// Copy `from` back into `to` (as many words as `to` holds).
    pub fn download(&self, from: &CudaSlice<u64>, to: &mut [u64]) -> Result<(), Error> {
        let view = from.slice(0..to.len());
        self.stream.memcpy_dtoh(&view, to).map_err(driver_error("to copy results from the GPU"))
    }

    /// Launch `kernel(input, output, base, count)` on `threads` threads in
    /// blocks of `block`, and wait for it. Every kernel ptxcheck writes takes
    /// these four parameters; kernels that need fewer ignore the rest.
    pub fn launch(
        &self,
        kernel: &CudaFunction,
        input: &CudaSlice<u64>,
        output: &mut CudaSlice<u64>,
        base: u64,
        count: u64,
        (blocks, block): (u32, u32),
    ) -> Result<(), Error> {
        let config = LaunchConfig { grid_dim: (blocks, 1, 1), block_dim: (block, 1, 1), shared_mem_bytes: 0 };
        let mut launch = self.stream.launch_builder(kernel);
        launch.arg(input).arg(output).arg(&base).arg(&count);
        // SAFETY: the kernel's parameters are the four pushed above, in that
        // order and of those types (two global pointers, two u64); it writes
        // only `output`, within `count` results (kernels in `hw` and `sweep`).
        unsafe { launch.launch(config) }.map_err(driver_error("to launch a kernel"))?;
        self.stream.synchronize().map_err(driver_error("running a kernel"))
    }
}

/// The parameter list every kernel of ptxcheck's takes (see [`Gpu::launch`]).
pub const PARAMS: &str = "(.param .u64 in, .param .u64 out, .param .u64 base, .param .u64 count)";
