import Foundation

/// A file as an input reader found it.
public enum ComposeFile: Sendable, Equatable {
    /// The file's bytes.
    case present(Data)
    /// No such file.
    case missing
    /// The path cannot be read as a file inside the repository (outside it through a symbolic link, a directory, …).
    case refused(ComposeProblem)
}

/// What compose reads for one tenant: the project, the tenant, and the files of its active modules at their pins.
public struct ComposeInput: Sendable {
    /// One module's inputs.
    public struct ModuleFiles: Sendable, Equatable {
        /// `Strings.csv` at the module root.
        public var strings: ComposeFile
        /// `ModuleDescription.json` at the module root.
        public var description: ComposeFile

        /// Creates the inputs of a module.
        public init(strings: ComposeFile, description: ComposeFile) {
            self.strings = strings
            self.description = description
        }
    }

    /// The validated project (as on the tenant's branch).
    public var project: Project
    /// The tenant.
    public var tenant: Tenant
    /// Where the inputs came from: `working copy` or `origin/<branch>`.
    public var origin: String
    /// Active module name → its files (only the effective active modules are read).
    public var modules: [String: ModuleFiles]
    /// The tenant's `strings` files, in the tenant file's order.
    public var tenantStrings: [(path: String, file: ComposeFile)]
    /// Notes about the inputs (a module not at its pin, …), shown as warnings.
    public var warnings: [String]

    /// Creates an input.
    public init(
        project: Project, tenant: Tenant, origin: String, modules: [String: ModuleFiles],
        tenantStrings: [(path: String, file: ComposeFile)], warnings: [String] = []
    ) {
        self.project = project
        self.tenant = tenant
        self.origin = origin
        self.modules = modules
        self.tenantStrings = tenantStrings
        self.warnings = warnings
    }
}

/// The files compose writes: relative path → bytes. Compared and written as a whole.
public struct ComposePlan: Sendable, Equatable {
    /// Relative path (`/`-separated) → content.
    public var files: [String: Data]

    /// Creates a plan.
    public init(files: [String: Data]) {
        self.files = files
    }

    /// The paths, sorted.
    public var paths: [String] { files.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) } }

    /// The marker file that says a directory is compose's own (it is replaced as a whole on every run).
    public static let marker = ".tenantctl-compose"
}

/// What compose made of a tenant: the plan and what the report says about it.
public struct ComposeResult: Sendable {
    /// The files to write.
    public var plan: ComposePlan
    /// The effective active modules in dependency order.
    public var active: [String]
    /// Dropped modules, with the missing dependencies.
    public var dropped: [DroppedModule]
    /// The string tables read, in the order applied.
    public var stringTables: [String]
    /// The merged strings.
    public var strings: ComposedStrings
    /// The merged dependencies.
    public var dependencies: ComposedDependencies
    /// The settings of `Tenant.xcconfig`, in the order written.
    public var buildSettings: [(name: String, value: String)]
    /// Warnings (inputs and descriptions).
    public var warnings: [String]
}

/// The pure part of compose: input files in, output files out.
public enum ComposePlanner {
    /// Plans the output for `input`; collects every problem and throws once.
    public static func plan(_ input: ComposeInput) throws(ComposeError) -> ComposeResult {
        let tenant = input.tenant
        let activeSet = input.project.activeSet(for: tenant)
        let effective = Set(activeSet.effective)
        let active = input.project.graph.topologicalOrder.filter { effective.contains($0) }
        var problems: [ComposeProblem] = []
        var warnings = input.warnings
        var tables: [StringsTable] = []
        var descriptions: [(module: String, description: ModuleDescription)] = []
        for name in active {
            guard let module = input.project.module(named: name), let files = input.modules[name] else {
                problems.append(ComposeProblem(.input, "module \(name): its files were not read"))
                continue
            }
            let stringsSource = "\(module.path)/\(ComposeLayout.moduleStrings) (module \(name))"
            switch files.strings {
            case .present(let data):
                do {
                    tables.append(try StringsTable.parse(data, source: stringsSource))
                } catch {
                    problems += error.problems
                }
            case .missing: break
            case .refused(let problem): problems.append(problem)
            }
            let descriptionSource = "\(module.path)/\(ComposeLayout.moduleDescription) (module \(name))"
            switch files.description {
            case .present(let data):
                do {
                    let description = try ModuleDescription.parse(data, module: name, source: descriptionSource)
                    if let declared = description.dependsOn, Set(declared) != Set(module.dependsOn) {
                        warnings.append(
                            "\(descriptionSource): dependsOn [\(declared.joined(separator: ", "))] differs from "
                                + "modules.json [\(module.dependsOn.joined(separator: ", "))]; modules.json decides")
                    }
                    descriptions.append((name, description))
                } catch {
                    problems += error.problems
                }
            case .missing: break
            case .refused(let problem): problems.append(problem)
            }
        }
        for (offset, entry) in input.tenantStrings.enumerated() {
            let source = "\(entry.path) (tenant \(tenant.id))"
            switch entry.file {
            case .present(let data):
                do {
                    tables.append(try StringsTable.parse(data, source: source))
                } catch {
                    problems += error.problems
                }
            case .missing:
                problems.append(
                    ComposeProblem(
                        .missingFile,
                        "tenant \(tenant.id): strings file \(entry.path) does not exist in \(input.origin) "
                            + "(\(tenant.file) strings[\(offset)])"))
            case .refused(let problem): problems.append(problem)
            }
        }
        var dependencies = ComposedDependencies(packages: [], pods: [])
        do {
            dependencies = try DependencyComposer.compose(descriptions, tenant: tenant)
        } catch {
            problems += error.problems
        }
        var buildSettings: [(name: String, value: String)] = []
        do {
            buildSettings = try TenantXcconfigWriter.settings(tenant: tenant, platforms: dependencies.platforms)
        } catch {
            problems += error.problems
        }
        guard problems.isEmpty else { throw ComposeError(problems: problems) }

        let strings = StringsComposer.compose(tables)
        var files: [String: Data] = [:]
        files[ComposePlan.marker] = Data(
            "Written by `tenantctl compose`; this directory is replaced as a whole on every run.\n".utf8)
        files[ComposeLayout.activeModules] = activeModulesJSON(
            tenant: tenant.id, active: active, dropped: activeSet.dropped)
        let header = "Generated by `tenantctl compose` for tenant \(tenant.id). Do not edit."
        for language in strings.languages {
            files["\(language).lproj/Localizable.strings"] = StringsFileWriter.file(
                strings, language: language, header: header)
        }
        files[ComposeLayout.stringCatalog] = StringCatalogWriter.catalog(strings)
        files[ComposeLayout.packageManifest] = PackageManifestWriter.manifest(dependencies, tenant: tenant.id)
        files[ComposeLayout.packageExports] = PackageManifestWriter.exports(dependencies)
        if !dependencies.pods.isEmpty {
            files[ComposeLayout.podfile] = PodfileWriter.podfile(dependencies.pods, tenant: tenant.id)
        }
        files[ComposeLayout.xcconfig] = TenantXcconfigWriter.file(tenant: tenant, settings: buildSettings)
        return ComposeResult(
            plan: ComposePlan(files: files), active: active, dropped: activeSet.dropped,
            stringTables: tables.map(\.source), strings: strings,
            dependencies: dependencies, buildSettings: buildSettings, warnings: warnings)
    }

    /// `ActiveModules.json`: the tenant, its effective active modules in dependency order, the dropped ones.
    static func activeModulesJSON(tenant: String, active: [String], dropped: [DroppedModule]) -> Data {
        var out = "{\n"
        out += "  \"version\": 1,\n"
        out += "  \"tenant\": \(JSONText.quoted(tenant)),\n"
        out += "  \"active\": \(JSONText.inlineArray(active)),\n"
        if dropped.isEmpty {
            out += "  \"dropped\": []\n"
        } else {
            out += "  \"dropped\": [\n"
            out +=
                dropped.map {
                    "    { \"module\": \(JSONText.quoted($0.module)), \"missing\": \(JSONText.inlineArray($0.missing)) }"
                }.joined(separator: ",\n") + "\n"
            out += "  ]\n"
        }
        out += "}\n"
        return Data(out.utf8)
    }
}

/// The file names compose reads and writes.
public enum ComposeLayout {
    /// A module's string table.
    public static let moduleStrings = "Strings.csv"
    /// A module's description.
    public static let moduleDescription = "ModuleDescription.json"
    /// The active modules.
    public static let activeModules = "ActiveModules.json"
    /// The String Catalog.
    public static let stringCatalog = "Localizable.xcstrings"
    /// The umbrella package manifest.
    public static let packageManifest = "TenantDependencies/Package.swift"
    /// The umbrella package's one source file.
    public static let packageExports = "TenantDependencies/Sources/TenantDependencies/Exports.swift"
    /// The Podfile.
    public static let podfile = "Podfile"
    /// The tenant's build settings.
    public static let xcconfig = "Tenant.xcconfig"
    /// The default output directory, relative to the superproject root.
    public static let defaultOutput = "Generated"
}
