import Foundation

/// Decodes and validates `modules.json` and `Tenants/*.json`, collecting every problem before throwing.
public enum ProjectLoader {
    /// Decodes, validates everything, and throws once with every problem found.
    public static func load(
        manifest: SourceFile, tenantFiles: [SourceFile], options: ValidationOptions = .init()
    ) throws(ManifestError) -> Project {
        var problems: [ManifestProblem] = []
        let decodedManifest = manifestChecks(manifest, options: options, problems: &problems)
        var tenants: [Tenant] = []
        var tenantPositions: [String: [String: JSONPosition]] = [:]
        // Each file is decoded and validated on its own, so the files are shared out over the cores (1000 tenant
        // files took a fifth of `audit --no-fetch`); the results are taken in file order.
        let sorted = tenantFiles.sorted(by: { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) })
        // The manifest's module names and its active-set rule, once for every tenant file (not made per file).
        let known = decodedManifest.map { Set($0.modules.map(\.name)) } ?? []
        let rule = ActiveSetRule(modules: decodedManifest?.modules ?? [])
        let decoded = Concurrent.chunkedMap(sorted) { file -> DecodedTenantFile in
            var decoder = FieldDecoder(file: file.path)
            let tenant = decodeTenant(file, decoder: &decoder)
            let positions = decoder.positions
            if let tenant {
                validateTenant(tenant, manifest: decodedManifest, known: known, rule: rule, decoder: &decoder)
            }
            return DecodedTenantFile(tenant: tenant, positions: positions, problems: decoder.problems)
        }
        for (file, result) in zip(sorted, decoded) {
            if let tenant = result.tenant {
                tenants.append(tenant)
                tenantPositions[file.path] = result.positions
            }
            problems += result.problems
        }
        var crossDecoder = FieldDecoder(file: "")
        validateAcrossTenants(tenants, manifest: decodedManifest, positions: tenantPositions, into: &crossDecoder)
        problems += crossDecoder.problems
        var invalid: [InvalidTenant] = []
        if options.keepInvalidTenants, decodedManifest != nil, !problems.contains(where: { $0.file == manifest.path }) {
            // Every remaining problem belongs to one tenant file: that tenant is set aside, the others load.
            let byFile = Dictionary(grouping: problems, by: \.file)
            invalid = byFile.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { file in
                let decoded = tenants.first { $0.file == file }
                return InvalidTenant(
                    id: fileStem(file), file: file, branch: decoded?.branch ?? fileStem(file),
                    problems: byFile[file] ?? [])
            }
            tenants.removeAll { byFile[$0.file] != nil }
            problems = []
        }
        guard problems.isEmpty, let decodedManifest else { throw ManifestError(problems: problems) }
        let graph = try DependencyGraph(modules: decodedManifest.modules, file: manifest.path)
        var project = Project(manifest: decodedManifest, tenants: tenants, graph: graph)
        project.invalidTenants = invalid
        return project
    }

    /// One tenant file decoded and validated on its own.
    struct DecodedTenantFile: Sendable {
        var tenant: Tenant?
        /// The positions of the values read, recorded before validation (what the cross-tenant checks point at).
        var positions: [String: JSONPosition]
        var problems: [ManifestProblem]
    }

    /// Decodes and validates `modules.json` alone, throwing once with every problem found.
    public static func loadManifest(
        _ file: SourceFile, options: ValidationOptions = .init()
    ) throws(ManifestError) -> ModuleManifest {
        var problems: [ManifestProblem] = []
        let manifest = manifestChecks(file, options: options, problems: &problems)
        guard problems.isEmpty, let manifest else { throw ManifestError(problems: problems) }
        return manifest
    }

    /// The hint shown when a local remote is refused.
    public static let localRemoteHint =
        "pass --allow-local-remotes or set TENANTCTL_ALLOW_LOCAL_REMOTES=1 to allow it"

    /// Folds case and Unicode normalisation, for collision checks.
    package static func folded(_ text: String) -> String {
        // ASCII is its own canonical composition: only the case folds (the common case, and the normalisation is
        // what dominated loading 1000 tenant files).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.precomposedStringWithCanonicalMapping.lowercased().precomposedStringWithCanonicalMapping
    }

    // MARK: - modules.json

    /// Decodes and validates the manifest; returns it when it decoded (even with semantic problems).
    static func manifestChecks(
        _ file: SourceFile, options: ValidationOptions, problems: inout [ManifestProblem]
    ) -> ModuleManifest? {
        var decoder = FieldDecoder(file: file.path)
        let manifest = decodeManifest(file, decoder: &decoder)
        if let manifest { validateManifest(manifest, options: options, decoder: &decoder) }
        problems += decoder.problems
        return manifest
    }

    static func decodeManifest(_ file: SourceFile, decoder: inout FieldDecoder) -> ModuleManifest? {
        guard let root = decoder.parse(file.data) else { return nil }
        guard
            let fields = decoder.object(
                root, at: nil, allowed: ["version", "generalBranch", "modules", "review"],
                required: ["version", "modules"])
        else { return nil }
        let before = decoder.problems.count
        var version = 1
        if let value = fields["version"], let number = decoder.integer(value, at: "version") {
            if number != 1 {
                decoder.report("version", value.position, "unsupported version \(number) (expected 1)")
            }
            version = number
        }
        var generalBranch = ModuleManifest.defaultGeneralBranch
        if let value = fields["generalBranch"], let string = decoder.string(value, at: "generalBranch") {
            generalBranch = string
        }
        var modules: [Module] = []
        if let value = fields["modules"], let elements = decoder.array(value, at: "modules") {
            for (offset, element) in elements.enumerated() {
                let path = "modules[\(offset)]"
                guard
                    let entry = decoder.object(
                        element, at: path, allowed: ["name", "path", "url", "generalBranch", "dependsOn", "review"],
                        required: ["name", "path", "url"])
                else { continue }
                let name = entry["name"].flatMap { decoder.string($0, at: path + ".name") }
                let modulePath = entry["path"].flatMap { decoder.string($0, at: path + ".path") }
                let url = entry["url"].flatMap { decoder.string($0, at: path + ".url") }
                let dependsOn = entry["dependsOn"].map { decoder.stringArray($0, at: path + ".dependsOn") } ?? []
                let moduleBranch = entry["generalBranch"].map { decoder.string($0, at: path + ".generalBranch") }
                let review = entry["review"].map { ReviewSettings.decode($0, at: path + ".review", decoder: &decoder) }
                if let name, let modulePath, let url, let dependsOn, moduleBranch != .some(nil), review != .some(nil) {
                    var module = Module(
                        name: name, path: modulePath, url: url, dependsOn: dependsOn, generalBranch: moduleBranch ?? nil
                    )
                    module.review = review ?? nil
                    modules.append(module)
                }
            }
        }
        let review = fields["review"].flatMap { ReviewSettings.decode($0, at: "review", decoder: &decoder) }
        guard decoder.problems.count == before else { return nil }
        var manifest = ModuleManifest(version: version, generalBranch: generalBranch, modules: modules)
        manifest.review = review
        return manifest
    }

    static func validateManifest(_ manifest: ModuleManifest, options: ValidationOptions, decoder: inout FieldDecoder) {
        if let reason = RefName.validateBranch(manifest.generalBranch) {
            decoder.report("generalBranch", "invalid branch name \"\(manifest.generalBranch)\": \(reason)")
        }
        var names: [String: Int] = [:]
        var paths: [(folded: String, offset: Int)] = []
        for (offset, module) in manifest.modules.enumerated() {
            let field = "modules[\(offset)]"
            if let reason = ModuleName.validate(module.name) {
                decoder.report(field + ".name", "invalid module name \"\(module.name)\": \(reason)")
            }
            if let other = names[folded(module.name)] {
                let first = manifest.modules[other].name
                let detail =
                    first == module.name
                    ? "duplicate module name \"\(module.name)\" (also modules[\(other)])"
                    : "module name \"\(module.name)\" differs only in case or Unicode normalisation from "
                        + "\"\(first)\" (modules[\(other)])"
                decoder.report(field + ".name", detail)
            } else {
                names[folded(module.name)] = offset
            }
            if let reason = RepoPath.validate(module.path) {
                decoder.report(field + ".path", "invalid path \"\(module.path)\": \(reason)")
            } else {
                let key = folded(module.path)
                for (otherKey, other) in paths {
                    let otherModule = manifest.modules[other]
                    if otherKey == key {
                        decoder.report(
                            field + ".path",
                            "duplicate path \"\(module.path)\" (also module \"\(otherModule.name)\", modules[\(other)])"
                        )
                    } else if key.hasPrefix(otherKey + "/") || otherKey.hasPrefix(key + "/") {
                        decoder.report(
                            field + ".path",
                            "path \"\(module.path)\" of module \"\(module.name)\" and path \"\(otherModule.path)\" "
                                + "of module \"\(otherModule.name)\" are nested inside each other")
                    }
                }
                paths.append((key, offset))
            }
            validateURL(module, field: field + ".url", options: options, decoder: &decoder)
            if let branch = module.generalBranch, let reason = RefName.validateBranch(branch) {
                decoder.report(
                    field + ".generalBranch",
                    "invalid branch name \"\(branch)\" (general branch of module \"\(module.name)\"): \(reason)")
            }
            var seen: Set<String> = []
            for (depOffset, dependency) in module.dependsOn.enumerated() where !seen.insert(dependency).inserted {
                decoder.report("\(field).dependsOn[\(depOffset)]", "duplicate entry \"\(dependency)\"")
            }
        }
        for problem in DependencyGraph.problems(in: manifest.modules, file: decoder.file) {
            decoder.report(problem.field, problem.message)
        }
    }

    static func validateURL(_ module: Module, field: String, options: ValidationOptions, decoder: inout FieldDecoder) {
        let shown = RemoteURL.redacted(module.url)
        if let reason = RemoteURL.validate(module.url) {
            decoder.report(field, "invalid URL \"\(shown)\" of module \"\(module.name)\": \(reason)")
        } else if RemoteURL.isLocal(module.url) && !options.allowLocalRemotes {
            decoder.report(
                field, "local remote \"\(shown)\" of module \"\(module.name)\" is refused; \(localRemoteHint)")
        }
    }

    // MARK: - Tenants/<id>.json

    static func decodeTenant(_ file: SourceFile, decoder: inout FieldDecoder) -> Tenant? {
        guard let root = decoder.parse(file.data) else { return nil }
        guard
            let fields = decoder.object(
                root, at: nil,
                allowed: [
                    "id", "name", "branch", "modules", "customised", "branches", "strings", "platforms", "build",
                ],
                required: ["id", "modules", "customised"])
        else { return nil }
        let before = decoder.problems.count
        let id = fields["id"].flatMap { decoder.string($0, at: "id") }
        var name: String?
        if let value = fields["name"] {
            if case .null = value { name = nil } else { name = decoder.string(value, at: "name") }
        }
        let branch = fields["branch"].flatMap { decoder.string($0, at: "branch") }
        let modules = fields["modules"].flatMap { decoder.stringArray($0, at: "modules") }
        let customised = fields["customised"].flatMap { decoder.stringArray($0, at: "customised") }
        let branches = fields["branches"].map { decodeBranches($0, decoder: &decoder) } ?? [:]
        let strings = fields["strings"].map { decoder.stringArray($0, at: "strings") } ?? []
        let platforms =
            fields["platforms"].map { PlatformVersions.decode($0, at: "platforms", decoder: &decoder) } ?? [:]
        let build = fields["build"].map { TenantBuild.decode($0, decoder: &decoder) }
        guard decoder.problems.count == before, let id, let modules, let customised, let branches, let strings,
            let platforms
        else {
            return nil
        }
        return Tenant(
            id: id, name: name, branch: branch, modules: modules, customised: customised, branches: branches,
            strings: strings, platforms: platforms, build: build ?? nil, file: file.path)
    }

    /// Decodes `"branches"`: an object of module names to module branch names (checked by ``validateTenant``).
    static func decodeBranches(_ value: JSONValue, decoder: inout FieldDecoder) -> [String: String]? {
        decoder.positions["branches"] = value.position
        guard case .object(let members, _) = value else {
            decoder.expected("an object of module names to branch names", value, at: "branches")
            return nil
        }
        var result: [String: String] = [:]
        var ok = true
        for member in members {
            if let branch = decoder.string(member.value, at: "branches.\(member.key)") {
                result[member.key] = branch
            } else {
                ok = false
            }
        }
        return ok ? result : nil
    }

    /// The file name without directories, `branch:` prefix and `.json` extension.
    static func fileStem(_ path: String) -> String {
        var name = Substring(path)
        if let cut = name.lastIndex(where: { $0 == "/" || $0 == ":" || $0 == "\\" }) {
            name = name[name.index(after: cut)...]
        }
        if name.hasSuffix(".json") { name = name.dropLast(5) }
        return String(name)
    }

    /// `known`: the names of the manifest's modules; `rule`: its active-set rule.
    static func validateTenant(
        _ tenant: Tenant, manifest: ModuleManifest?, known: Set<String>, rule: ActiveSetRule,
        decoder: inout FieldDecoder
    ) {
        let who = "tenant \"\(tenant.id)\""
        let idReason = RefName.validateBranch(tenant.id)
        if let idReason {
            decoder.report("id", "invalid tenant id \"\(tenant.id)\": \(idReason)")
        }
        let stem = fileStem(tenant.file)
        if !tenant.file.hasSuffix(".json") {
            decoder.report(
                "id",
                "the file name of tenant \"\(tenant.id)\" must end in .json (lower case), as Tenants/\(tenant.id).json")
        } else if stem != tenant.id {
            decoder.report("id", "tenant id \"\(tenant.id)\" does not match the file name (expected \"\(stem)\")")
        }
        if tenant.branch != tenant.id || idReason == nil, let reason = RefName.validateBranch(tenant.branch) {
            decoder.report("branch", "invalid branch name \"\(tenant.branch)\" of \(who): \(reason)")
        }
        for (module, branch) in tenant.branches.sorted(by: { $0.key < $1.key }) {
            if let reason = RefName.validateBranch(branch) {
                decoder.report(
                    "branches.\(module)",
                    "invalid branch name \"\(branch)\" of module \"\(module)\" in \(who): \(reason)")
            }
        }
        for (offset, path) in tenant.strings.enumerated() {
            if let reason = RepoPath.validate(path) {
                decoder.report(
                    "strings[\(offset)]",
                    "invalid strings path \"\(path)\" of \(who): \(reason) (paths are relative to "
                        + "the superproject root and stay inside the repository)")
            }
        }
        if let build = tenant.build { TenantBuild.validate(build, who: who, decoder: &decoder) }
        for list in ["modules", "customised", "strings"] {
            var seen: Set<String> = []
            let entries = list == "modules" ? tenant.modules : list == "customised" ? tenant.customised : tenant.strings
            for (offset, entry) in entries.enumerated() where !seen.insert(entry).inserted {
                decoder.report("\(list)[\(offset)]", "duplicate entry \"\(entry)\" in \(who)")
            }
        }
        guard let manifest else { return }
        if folded(tenant.branch) == folded(manifest.generalBranch) {
            decoder.report(
                "branch", "\(who) uses the general branch \"\(manifest.generalBranch)\" as its tenant branch")
        }
        for (offset, module) in tenant.modules.enumerated() where !known.contains(module) {
            decoder.report("modules[\(offset)]", "\(who) names unknown module \"\(module)\"")
        }
        let customisedFields =
            tenant.customised.enumerated().map { ("customised[\($0.offset)]", $0.element) }
            + tenant.branches.keys.sorted().filter { !tenant.customised.contains($0) }.map { ("branches.\($0)", $0) }
        guard !customisedFields.isEmpty else { return }  // (the active set is for the customised modules' checks)
        let declared = Set(tenant.modules)
        let active = rule.activeSet(declared: tenant.modules)
        for (field, module) in customisedFields {
            let moduleBranch = tenant.moduleBranch(for: module)
            if !known.contains(module) {
                decoder.report(field, "\(who) customises unknown module \"\(module)\"")
            } else if let entry = manifest.modules.first(where: { $0.name == module }),
                folded(moduleBranch) == folded(manifest.generalBranch(of: entry))
            {
                decoder.report(
                    field,
                    "\(who) customises module \"\(module)\" on branch \"\(moduleBranch)\", the module's general branch"
                )
            } else if !declared.contains(module) {
                decoder.report(field, "\(who) customises module \"\(module)\", which is not one of its active modules")
            } else if let drop = active.dropped.first(where: { $0.module == module }) {
                let missing = drop.missing.map { "\"\($0)\"" }.joined(separator: ", ")
                decoder.report(
                    field,
                    "\(who) customises module \"\(module)\", which is dropped from its effective active set "
                        + "(missing dependency \(missing))")
            }
        }
    }

    static func validateAcrossTenants(
        _ tenants: [Tenant], manifest: ModuleManifest?, positions: [String: [String: JSONPosition]],
        into decoder: inout FieldDecoder
    ) {
        func report(_ tenant: Tenant, _ field: String, _ message: String) {
            let position = positions[tenant.file]?[field]
            decoder.problems.append(
                ManifestProblem(
                    file: tenant.file, field: field, line: position?.line, column: position?.column, message: message))
        }
        var ids: [String: Tenant] = [:]
        var idClash: Set<String> = []
        for tenant in tenants {
            let key = folded(tenant.id)
            if let other = ids[key] {
                idClash.insert(tenant.file)
                if other.id.unicodeScalars.elementsEqual(tenant.id.unicodeScalars) {
                    report(tenant, "id", "duplicate tenant id \"\(tenant.id)\" (also \(other.file))")
                } else {
                    report(
                        tenant, "id",
                        "tenant id \"\(tenant.id)\" differs only in case or Unicode normalisation from "
                            + "\"\(other.id)\" (\(other.file))")
                }
            } else {
                ids[key] = tenant
            }
        }
        // Branch names: equal when folded, or one a directory prefix of another (git cannot store both). Each tenant is
        // checked against the earlier ones, in file order, through indexes by key and by directory prefix (not against
        // every earlier tenant: 1000 tenants would make half a million comparisons).
        var branches: [(key: String, tenant: Tenant)] = []
        var byKey: [String: [Int]] = [:]
        var byDirectory: [String: [Int]] = [:]  // a directory prefix → the earlier branches below it
        for tenant in tenants {
            let key = folded(tenant.branch)
            let field = "branch"
            if idClash.contains(tenant.file) && tenant.branch == tenant.id { continue }
            if let general = manifest?.generalBranch {
                let generalKey = folded(general)
                if key.hasPrefix(generalKey + "/") || generalKey.hasPrefix(key + "/") {
                    report(
                        tenant, field,
                        "branch \"\(tenant.branch)\" of tenant \"\(tenant.id)\" conflicts with the general branch "
                            + "\"\(general)\" (one is a directory of the other)")
                }
            }
            let directories = Self.directoryPrefixes(key)
            var clashes = (byKey[key] ?? []) + (byDirectory[key] ?? [])
            for directory in directories { clashes += byKey[directory] ?? [] }
            for index in clashes.sorted() {
                let (otherKey, other) = branches[index]
                if otherKey == key {
                    let how =
                        other.branch.unicodeScalars.elementsEqual(tenant.branch.unicodeScalars)
                        ? "is also" : "differs only in case or normalisation from"
                    report(
                        tenant, field,
                        "branch \"\(tenant.branch)\" of tenant \"\(tenant.id)\" \(how) the branch \"\(other.branch)\" "
                            + "of tenant \"\(other.id)\" (\(other.file))")
                } else {
                    report(
                        tenant, field,
                        "branch \"\(tenant.branch)\" of tenant \"\(tenant.id)\" conflicts with branch "
                            + "\"\(other.branch)\" of tenant \"\(other.id)\" (one is a directory of the other)")
                }
            }
            byKey[key, default: []].append(branches.count)
            for directory in directories { byDirectory[directory, default: []].append(branches.count) }
            branches.append((key, tenant))
        }
        validateModuleBranches(tenants, report: report)
    }

    /// The module branches `branches` maps: each followed by one tenant only (two tenants on one module branch would
    /// roll, pin and customise it over each other), and none named after another tenant's branch (that name is the
    /// one the other tenant's customisation of the module would use).
    static func validateModuleBranches(_ tenants: [Tenant], report: (Tenant, String, String) -> Void) {
        guard tenants.contains(where: { !$0.branches.isEmpty }) else { return }
        var tenantBranches: [String: Tenant] = [:]
        for tenant in tenants where tenantBranches[folded(tenant.branch)] == nil {
            tenantBranches[folded(tenant.branch)] = tenant
        }
        var followed: [String: [String: Tenant]] = [:]  // module → folded module branch → the first tenant on it
        for tenant in tenants {
            for module in tenant.customisedModules {
                let moduleBranch = tenant.moduleBranch(for: module)
                let key = folded(moduleBranch)
                let field =
                    tenant.branches[module] != nil
                    ? "branches.\(module)" : "customised[\(tenant.customised.firstIndex(of: module) ?? 0)]"
                if let other = followed[module]?[key] {
                    // Two tenants on one branch name clash already (reported with their `branch`).
                    guard tenant.branches[module] != nil || other.branches[module] != nil else { continue }
                    report(
                        tenant, field,
                        "tenant \"\(tenant.id)\" customises module \"\(module)\" on branch \"\(moduleBranch)\", which "
                            + "tenant \"\(other.id)\" (\(other.file)) follows too; give each tenant its own branch of the "
                            + "module")
                    continue
                }
                followed[module, default: [:]][key] = tenant
                if tenant.branches[module] != nil, let other = tenantBranches[key], other.id != tenant.id {
                    report(
                        tenant, field,
                        "tenant \"\(tenant.id)\" maps module \"\(module)\" to branch \"\(moduleBranch)\", the name of "
                            + "tenant \"\(other.id)\"'s branch (\(other.file)); map it to a branch not named after "
                            + "another tenant")
                }
            }
        }
    }

    /// The directory prefixes of a branch name: `a/b/c` → `a`, `a/b` (the names git could not store next to it).
    static func directoryPrefixes(_ key: String) -> [String] {
        var prefixes: [String] = []
        var index = key.startIndex
        while let slash = key[index...].firstIndex(of: "/") {
            prefixes.append(String(key[..<slash]))
            index = key.index(after: slash)
        }
        return prefixes
    }
}

/// Reads typed fields out of a ``JSONValue`` tree, recording problems with coding paths and positions.
package struct FieldDecoder {
    let file: String
    package var problems: [ManifestProblem] = []
    /// Start position of every value read, by coding path.
    package var positions: [String: JSONPosition] = [:]

    package init(file: String) {
        self.file = file
    }

    package mutating func report(_ field: String?, _ position: JSONPosition?, _ message: String) {
        problems.append(
            ManifestProblem(file: file, field: field, line: position?.line, column: position?.column, message: message))
    }

    /// Reports at the recorded position of `field`, if any.
    package mutating func report(_ field: String?, _ message: String) {
        report(field, field.flatMap { positions[$0] }, message)
    }

    package mutating func parse(_ data: Data) -> JSONValue? {
        do {
            return try JSONParser.parse(data)
        } catch {
            report(nil, error.position, error.message)
            return nil
        }
    }

    mutating func expected(_ what: String, _ value: JSONValue, at field: String?) {
        report(field, value.position, "expected \(what), found \(value.kindDescription)")
    }

    package mutating func object(
        _ value: JSONValue, at field: String?, allowed: [String], required: [String]
    ) -> [String: JSONValue]? {
        if let field { positions[field] = value.position }
        guard case .object(let members, let position) = value else {
            expected("an object", value, at: field)
            return nil
        }
        var result: [String: JSONValue] = [:]
        for member in members {
            if allowed.contains(member.key) {
                result[member.key] = member.value
            } else {
                var message = "unknown key \"\(member.key)\""
                if let suggestion = FieldDecoder.suggestion(for: member.key, in: allowed) {
                    message += " (did you mean \"\(suggestion)\"?)"
                }
                report(field, member.keyPosition, message)
            }
        }
        for key in required where result[key] == nil {
            report(field.map { "\($0).\(key)" } ?? key, position, "missing")
        }
        return result
    }

    package mutating func string(_ value: JSONValue, at field: String) -> String? {
        positions[field] = value.position
        guard case .string(let string, _) = value else {
            expected("a string", value, at: field)
            return nil
        }
        return string
    }

    mutating func integer(_ value: JSONValue, at field: String) -> Int? {
        positions[field] = value.position
        guard case .number(let text, _) = value, let number = Int(text) else {
            expected("an integer", value, at: field)
            return nil
        }
        return number
    }

    package mutating func array(_ value: JSONValue, at field: String) -> [JSONValue]? {
        positions[field] = value.position
        guard case .array(let elements, _) = value else {
            expected("an array", value, at: field)
            return nil
        }
        return elements
    }

    package mutating func stringArray(_ value: JSONValue, at field: String) -> [String]? {
        guard let elements = array(value, at: field) else { return nil }
        var strings: [String] = []
        var ok = true
        for (offset, element) in elements.enumerated() {
            if let string = string(element, at: "\(field)[\(offset)]") {
                strings.append(string)
            } else {
                ok = false
            }
        }
        return ok ? strings : nil
    }

    /// The allowed key closest to `key` (edit distance at most 2), for "did you mean".
    static func suggestion(for key: String, in allowed: [String]) -> String? {
        let scored = allowed.map { ($0, distance(Array(key.lowercased()), Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
