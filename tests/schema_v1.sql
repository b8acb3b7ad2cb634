-- varbench schema version 1 (as released before the metrics pass), for the migration test
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);
CREATE TABLE runs(id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL CHECK(kind IN ('suite','trace')),
  status TEXT NOT NULL CHECK(status IN ('running','complete','interrupted','failed')),
  command_line TEXT NOT NULL, cwd TEXT, git_commit TEXT, varbench_version TEXT,
  options TEXT, start_utc TEXT NOT NULL, end_utc TEXT, exit_code INTEGER, message TEXT);
CREATE TABLE host_env(run_id INTEGER PRIMARY KEY REFERENCES runs(id), hostname TEXT,
  os TEXT, kernel TEXT, cpu_model TEXT, cpu_count INTEGER, memory_bytes INTEGER);
CREATE TABLE TARGET_INFO_GPU(run_id INTEGER NOT NULL REFERENCES runs(id), id INTEGER NOT NULL,
  name TEXT, uuid TEXT, busLocation TEXT, computeMajor INTEGER, computeMinor INTEGER,
  smCount INTEGER, totalMemory INTEGER, l2CacheSize INTEGER, clockRate INTEGER,
  smClockMeasuredMHz REAL, memoryClockRate INTEGER, memoryBusWidth INTEGER,
  pcieLinkSpeed TEXT, pcieGen INTEGER, pcieWidth INTEGER, driverVersion TEXT,
  cudaDriverVersion INTEGER, cudaRuntimeVersion INTEGER, cuptiVersion INTEGER,
  PRIMARY KEY(run_id, id));
CREATE TABLE ceilings(run_id INTEGER NOT NULL REFERENCES runs(id), device_id INTEGER NOT NULL,
  name TEXT NOT NULL, bytes INTEGER, reps INTEGER, median_ns REAL, gbps REAL,
  PRIMARY KEY(run_id, device_id, name));
CREATE TABLE variants(id INTEGER PRIMARY KEY, family TEXT NOT NULL, name TEXT NOT NULL,
  summary TEXT, seed TEXT, is_reference INTEGER NOT NULL, needs_gpu INTEGER NOT NULL,
  UNIQUE(family, name));
CREATE TABLE cases(id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
  variant_id INTEGER NOT NULL REFERENCES variants(id), device_id INTEGER, axes TEXT NOT NULL,
  status TEXT NOT NULL CHECK(status IN ('ok','wrong-result','skipped','failed','interrupted')),
  reason TEXT, max_abs_err REAL, max_rel_err REAL, start INTEGER, end INTEGER,
  samples INTEGER NOT NULL, stop_reason TEXT, have_records INTEGER NOT NULL,
  e2e_median_ns REAL, e2e_min_ns REAL, e2e_max_ns REAL, e2e_mean_ns REAL, e2e_stdev_ns REAL,
  e2e_noise REAL, kernel_median_ns REAL, h2d_median_ns REAL, d2h_median_ns REAL,
  h2d_bytes INTEGER, h2d_count INTEGER, d2h_bytes INTEGER, d2h_count INTEGER,
  kernel_count INTEGER, traffic_varies INTEGER);
CREATE INDEX cases_run ON cases(run_id);
CREATE TABLE case_axes(case_id INTEGER NOT NULL REFERENCES cases(id), name TEXT NOT NULL,
  value INTEGER NOT NULL, label TEXT, PRIMARY KEY(case_id, name));
CREATE TABLE samples(id INTEGER PRIMARY KEY, case_id INTEGER NOT NULL REFERENCES cases(id),
  idx INTEGER NOT NULL, kind TEXT NOT NULL CHECK(kind IN ('verify','warmup','timed')),
  start INTEGER, end INTEGER, e2e_ns REAL NOT NULL, h2d_bytes INTEGER, h2d_count INTEGER,
  h2d_ns REAL, d2h_bytes INTEGER, d2h_count INTEGER, d2h_ns REAL, kernel_count INTEGER,
  kernel_ns REAL, memset_bytes INTEGER, memset_count INTEGER, memset_ns REAL);
CREATE INDEX samples_case ON samples(case_id);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(case_id INTEGER NOT NULL REFERENCES cases(id),
  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,
  gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER, blockY INTEGER, blockZ INTEGER,
  staticSharedMemory INTEGER, dynamicSharedMemory INTEGER, registersPerThread INTEGER,
  shortName INTEGER REFERENCES StringIds(id), mangledName INTEGER REFERENCES StringIds(id));
CREATE INDEX kernel_case ON CUPTI_ACTIVITY_KIND_KERNEL(case_id);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY(case_id INTEGER NOT NULL REFERENCES cases(id),
  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,
  bytes INTEGER NOT NULL, copyKind INTEGER REFERENCES ENUM_CUDA_MEMCPY_OPER(id),
  srcKind INTEGER, dstKind INTEGER);
CREATE INDEX memcpy_case ON CUPTI_ACTIVITY_KIND_MEMCPY(case_id);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET(case_id INTEGER NOT NULL REFERENCES cases(id),
  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER, contextId INTEGER, streamId INTEGER, correlationId INTEGER,
  value INTEGER, bytes INTEGER NOT NULL, memKind INTEGER);
CREATE INDEX memset_case ON CUPTI_ACTIVITY_KIND_MEMSET(case_id);
CREATE TABLE NVTX_EVENTS(case_id INTEGER NOT NULL REFERENCES cases(id),
  sample_id INTEGER REFERENCES samples(id), start INTEGER NOT NULL, end INTEGER,
  text TEXT, textId INTEGER REFERENCES StringIds(id), eventType INTEGER NOT NULL);
CREATE INDEX nvtx_case ON NVTX_EVENTS(case_id);
CREATE TABLE ENUM_CUDA_MEMCPY_OPER(id INTEGER PRIMARY KEY, name TEXT NOT NULL,
  label TEXT NOT NULL);
INSERT INTO ENUM_CUDA_MEMCPY_OPER VALUES (0,'CUDA_MEMCPY_OPER_UNKNOWN','Unknown'),
  (1,'CUDA_MEMCPY_OPER_HTOD','Host-to-Device'),(2,'CUDA_MEMCPY_OPER_DTOH','Device-to-Host'),
  (3,'CUDA_MEMCPY_OPER_HTOA','Host-to-Array'),(4,'CUDA_MEMCPY_OPER_ATOH','Array-to-Host'),
  (5,'CUDA_MEMCPY_OPER_ATOA','Array-to-Array'),(6,'CUDA_MEMCPY_OPER_ATOD','Array-to-Device'),
  (7,'CUDA_MEMCPY_OPER_DTOA','Device-to-Array'),(8,'CUDA_MEMCPY_OPER_DTOD','Device-to-Device'),
  (9,'CUDA_MEMCPY_OPER_HTOH','Host-to-Host'),(10,'CUDA_MEMCPY_OPER_PTOP','Peer-to-Peer');
CREATE VIEW case_summary AS SELECT c.run_id, c.id AS case_id, v.family || '/' || v.name AS
  variant, c.axes, c.status, c.samples, c.e2e_median_ns / 1e6 AS e2e_ms,
  c.kernel_median_ns / 1e6 AS kernel_ms, c.h2d_bytes, c.h2d_count,
  c.h2d_median_ns / 1e6 AS h2d_ms, c.d2h_bytes, c.d2h_count, c.d2h_median_ns / 1e6 AS d2h_ms,
  c.max_abs_err, c.max_rel_err, c.reason FROM cases c JOIN variants v ON v.id = c.variant_id;
INSERT INTO meta VALUES ('application', 'varbench');
PRAGMA user_version = 1;
