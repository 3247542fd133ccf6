// The layers this target builds on, visible in every file of it.
@_exported import TenantObservation
