//! Fuzz the artifact reader: any bytes must read or be refused with an
//! error, never panic; an artifact that reads must read back equal from the
//! bytes it writes, and every section its manifest lists must be present.
#![no_main]

use libfuzzer_sys::fuzz_target;
use strata_artifact::Artifact;

fuzz_target!(|data: &[u8]| {
    if let Ok(artifact) = Artifact::from_bytes(data, "fuzz.strata") {
        let again = Artifact::from_bytes(&artifact.to_bytes(), "again.strata")
            .expect("a written artifact reads");
        assert_eq!(again.sections().count(), artifact.sections().count());
        assert_eq!(again.manifest.kernels, artifact.manifest.kernels);
        for s in &artifact.manifest.sections {
            assert!(artifact.section(&s.name).is_some());
        }
    }
});
