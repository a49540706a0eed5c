// Opcode names of Core Spec v5.4 Vol 4, Part E, §7, plus the v6.0 LE additions (decision-based
// advertising filtering, Channel Sounding) that newer phones may send. The constants and the
// `specName` switch list the same opcodes in the same order; HCICommandOpcodeNamesTests checks
// samples against the spec values.

extension HCIOpcode {

    // MARK: OGF 0x01 — Link Control commands (Vol 4, Part E, §7.1)
    /// Inquiry
    public static let inquiry = HCIOpcode(ogf: 0x01, ocf: 0x0001)
    /// Inquiry Cancel
    public static let inquiryCancel = HCIOpcode(ogf: 0x01, ocf: 0x0002)
    /// Periodic Inquiry Mode
    public static let periodicInquiryMode = HCIOpcode(ogf: 0x01, ocf: 0x0003)
    /// Exit Periodic Inquiry Mode
    public static let exitPeriodicInquiryMode = HCIOpcode(ogf: 0x01, ocf: 0x0004)
    /// Create Connection
    public static let createConnection = HCIOpcode(ogf: 0x01, ocf: 0x0005)
    /// Disconnect
    public static let disconnect = HCIOpcode(ogf: 0x01, ocf: 0x0006)
    /// Create Connection Cancel
    public static let createConnectionCancel = HCIOpcode(ogf: 0x01, ocf: 0x0008)
    /// Accept Connection Request
    public static let acceptConnectionRequest = HCIOpcode(ogf: 0x01, ocf: 0x0009)
    /// Reject Connection Request
    public static let rejectConnectionRequest = HCIOpcode(ogf: 0x01, ocf: 0x000A)
    /// Link Key Request Reply
    public static let linkKeyRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x000B)
    /// Link Key Request Negative Reply
    public static let linkKeyRequestNegativeReply = HCIOpcode(ogf: 0x01, ocf: 0x000C)
    /// PIN Code Request Reply
    public static let pinCodeRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x000D)
    /// PIN Code Request Negative Reply
    public static let pinCodeRequestNegativeReply = HCIOpcode(ogf: 0x01, ocf: 0x000E)
    /// Change Connection Packet Type
    public static let changeConnectionPacketType = HCIOpcode(ogf: 0x01, ocf: 0x000F)
    /// Authentication Requested
    public static let authenticationRequested = HCIOpcode(ogf: 0x01, ocf: 0x0011)
    /// Set Connection Encryption
    public static let setConnectionEncryption = HCIOpcode(ogf: 0x01, ocf: 0x0013)
    /// Change Connection Link Key
    public static let changeConnectionLinkKey = HCIOpcode(ogf: 0x01, ocf: 0x0015)
    /// Link Key Selection
    public static let linkKeySelection = HCIOpcode(ogf: 0x01, ocf: 0x0017)
    /// Remote Name Request
    public static let remoteNameRequest = HCIOpcode(ogf: 0x01, ocf: 0x0019)
    /// Remote Name Request Cancel
    public static let remoteNameRequestCancel = HCIOpcode(ogf: 0x01, ocf: 0x001A)
    /// Read Remote Supported Features
    public static let readRemoteSupportedFeatures = HCIOpcode(ogf: 0x01, ocf: 0x001B)
    /// Read Remote Extended Features
    public static let readRemoteExtendedFeatures = HCIOpcode(ogf: 0x01, ocf: 0x001C)
    /// Read Remote Version Information
    public static let readRemoteVersionInformation = HCIOpcode(ogf: 0x01, ocf: 0x001D)
    /// Read Clock Offset
    public static let readClockOffset = HCIOpcode(ogf: 0x01, ocf: 0x001F)
    /// Read LMP Handle
    public static let readLMPHandle = HCIOpcode(ogf: 0x01, ocf: 0x0020)
    /// Setup Synchronous Connection
    public static let setupSynchronousConnection = HCIOpcode(ogf: 0x01, ocf: 0x0028)
    /// Accept Synchronous Connection Request
    public static let acceptSynchronousConnectionRequest = HCIOpcode(ogf: 0x01, ocf: 0x0029)
    /// Reject Synchronous Connection Request
    public static let rejectSynchronousConnectionRequest = HCIOpcode(ogf: 0x01, ocf: 0x002A)
    /// IO Capability Request Reply
    public static let ioCapabilityRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x002B)
    /// User Confirmation Request Reply
    public static let userConfirmationRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x002C)
    /// User Confirmation Request Negative Reply
    public static let userConfirmationRequestNegativeReply = HCIOpcode(ogf: 0x01, ocf: 0x002D)
    /// User Passkey Request Reply
    public static let userPasskeyRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x002E)
    /// User Passkey Request Negative Reply
    public static let userPasskeyRequestNegativeReply = HCIOpcode(ogf: 0x01, ocf: 0x002F)
    /// Remote OOB Data Request Reply
    public static let remoteOOBDataRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x0030)
    /// Remote OOB Data Request Negative Reply
    public static let remoteOOBDataRequestNegativeReply = HCIOpcode(ogf: 0x01, ocf: 0x0033)
    /// IO Capability Request Negative Reply
    public static let ioCapabilityRequestNegativeReply = HCIOpcode(ogf: 0x01, ocf: 0x0034)
    /// Enhanced Setup Synchronous Connection
    public static let enhancedSetupSynchronousConnection = HCIOpcode(ogf: 0x01, ocf: 0x003D)
    /// Enhanced Accept Synchronous Connection Request
    public static let enhancedAcceptSynchronousConnectionRequest = HCIOpcode(ogf: 0x01, ocf: 0x003E)
    /// Truncated Page
    public static let truncatedPage = HCIOpcode(ogf: 0x01, ocf: 0x003F)
    /// Truncated Page Cancel
    public static let truncatedPageCancel = HCIOpcode(ogf: 0x01, ocf: 0x0040)
    /// Set Connectionless Peripheral Broadcast
    public static let setConnectionlessPeripheralBroadcast = HCIOpcode(ogf: 0x01, ocf: 0x0041)
    /// Set Connectionless Peripheral Broadcast Receive
    public static let setConnectionlessPeripheralBroadcastReceive = HCIOpcode(ogf: 0x01, ocf: 0x0042)
    /// Start Synchronization Train
    public static let startSynchronizationTrain = HCIOpcode(ogf: 0x01, ocf: 0x0043)
    /// Receive Synchronization Train
    public static let receiveSynchronizationTrain = HCIOpcode(ogf: 0x01, ocf: 0x0044)
    /// Remote OOB Extended Data Request Reply
    public static let remoteOOBExtendedDataRequestReply = HCIOpcode(ogf: 0x01, ocf: 0x0045)

    // MARK: OGF 0x02 — Link Policy commands (§7.2)
    /// Hold Mode
    public static let holdMode = HCIOpcode(ogf: 0x02, ocf: 0x0001)
    /// Sniff Mode
    public static let sniffMode = HCIOpcode(ogf: 0x02, ocf: 0x0003)
    /// Exit Sniff Mode
    public static let exitSniffMode = HCIOpcode(ogf: 0x02, ocf: 0x0004)
    /// QoS Setup
    public static let qosSetup = HCIOpcode(ogf: 0x02, ocf: 0x0007)
    /// Role Discovery
    public static let roleDiscovery = HCIOpcode(ogf: 0x02, ocf: 0x0009)
    /// Switch Role
    public static let switchRole = HCIOpcode(ogf: 0x02, ocf: 0x000B)
    /// Read Link Policy Settings
    public static let readLinkPolicySettings = HCIOpcode(ogf: 0x02, ocf: 0x000C)
    /// Write Link Policy Settings
    public static let writeLinkPolicySettings = HCIOpcode(ogf: 0x02, ocf: 0x000D)
    /// Read Default Link Policy Settings
    public static let readDefaultLinkPolicySettings = HCIOpcode(ogf: 0x02, ocf: 0x000E)
    /// Write Default Link Policy Settings
    public static let writeDefaultLinkPolicySettings = HCIOpcode(ogf: 0x02, ocf: 0x000F)
    /// Flow Specification
    public static let flowSpecification = HCIOpcode(ogf: 0x02, ocf: 0x0010)
    /// Sniff Subrating
    public static let sniffSubrating = HCIOpcode(ogf: 0x02, ocf: 0x0011)

    // MARK: OGF 0x03 — Controller & Baseband commands (§7.3)
    /// Set Event Mask
    public static let setEventMask = HCIOpcode(ogf: 0x03, ocf: 0x0001)
    /// Reset
    public static let reset = HCIOpcode(ogf: 0x03, ocf: 0x0003)
    /// Set Event Filter
    public static let setEventFilter = HCIOpcode(ogf: 0x03, ocf: 0x0005)
    /// Flush
    public static let flush = HCIOpcode(ogf: 0x03, ocf: 0x0008)
    /// Read PIN Type
    public static let readPINType = HCIOpcode(ogf: 0x03, ocf: 0x0009)
    /// Write PIN Type
    public static let writePINType = HCIOpcode(ogf: 0x03, ocf: 0x000A)
    /// Read Stored Link Key
    public static let readStoredLinkKey = HCIOpcode(ogf: 0x03, ocf: 0x000D)
    /// Write Stored Link Key
    public static let writeStoredLinkKey = HCIOpcode(ogf: 0x03, ocf: 0x0011)
    /// Delete Stored Link Key
    public static let deleteStoredLinkKey = HCIOpcode(ogf: 0x03, ocf: 0x0012)
    /// Write Local Name
    public static let writeLocalName = HCIOpcode(ogf: 0x03, ocf: 0x0013)
    /// Read Local Name
    public static let readLocalName = HCIOpcode(ogf: 0x03, ocf: 0x0014)
    /// Read Connection Accept Timeout
    public static let readConnectionAcceptTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0015)
    /// Write Connection Accept Timeout
    public static let writeConnectionAcceptTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0016)
    /// Read Page Timeout
    public static let readPageTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0017)
    /// Write Page Timeout
    public static let writePageTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0018)
    /// Read Scan Enable
    public static let readScanEnable = HCIOpcode(ogf: 0x03, ocf: 0x0019)
    /// Write Scan Enable
    public static let writeScanEnable = HCIOpcode(ogf: 0x03, ocf: 0x001A)
    /// Read Page Scan Activity
    public static let readPageScanActivity = HCIOpcode(ogf: 0x03, ocf: 0x001B)
    /// Write Page Scan Activity
    public static let writePageScanActivity = HCIOpcode(ogf: 0x03, ocf: 0x001C)
    /// Read Inquiry Scan Activity
    public static let readInquiryScanActivity = HCIOpcode(ogf: 0x03, ocf: 0x001D)
    /// Write Inquiry Scan Activity
    public static let writeInquiryScanActivity = HCIOpcode(ogf: 0x03, ocf: 0x001E)
    /// Read Authentication Enable
    public static let readAuthenticationEnable = HCIOpcode(ogf: 0x03, ocf: 0x001F)
    /// Write Authentication Enable
    public static let writeAuthenticationEnable = HCIOpcode(ogf: 0x03, ocf: 0x0020)
    /// Read Class of Device
    public static let readClassOfDevice = HCIOpcode(ogf: 0x03, ocf: 0x0023)
    /// Write Class of Device
    public static let writeClassOfDevice = HCIOpcode(ogf: 0x03, ocf: 0x0024)
    /// Read Voice Setting
    public static let readVoiceSetting = HCIOpcode(ogf: 0x03, ocf: 0x0025)
    /// Write Voice Setting
    public static let writeVoiceSetting = HCIOpcode(ogf: 0x03, ocf: 0x0026)
    /// Read Automatic Flush Timeout
    public static let readAutomaticFlushTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0027)
    /// Write Automatic Flush Timeout
    public static let writeAutomaticFlushTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0028)
    /// Read Num Broadcast Retransmissions
    public static let readNumBroadcastRetransmissions = HCIOpcode(ogf: 0x03, ocf: 0x0029)
    /// Write Num Broadcast Retransmissions
    public static let writeNumBroadcastRetransmissions = HCIOpcode(ogf: 0x03, ocf: 0x002A)
    /// Read Hold Mode Activity
    public static let readHoldModeActivity = HCIOpcode(ogf: 0x03, ocf: 0x002B)
    /// Write Hold Mode Activity
    public static let writeHoldModeActivity = HCIOpcode(ogf: 0x03, ocf: 0x002C)
    /// Read Transmit Power Level
    public static let readTransmitPowerLevel = HCIOpcode(ogf: 0x03, ocf: 0x002D)
    /// Read Synchronous Flow Control Enable
    public static let readSynchronousFlowControlEnable = HCIOpcode(ogf: 0x03, ocf: 0x002E)
    /// Write Synchronous Flow Control Enable
    public static let writeSynchronousFlowControlEnable = HCIOpcode(ogf: 0x03, ocf: 0x002F)
    /// Set Controller To Host Flow Control
    public static let setControllerToHostFlowControl = HCIOpcode(ogf: 0x03, ocf: 0x0031)
    /// Host Buffer Size
    public static let hostBufferSize = HCIOpcode(ogf: 0x03, ocf: 0x0033)
    /// Host Number Of Completed Packets
    public static let hostNumberOfCompletedPackets = HCIOpcode(ogf: 0x03, ocf: 0x0035)
    /// Read Link Supervision Timeout
    public static let readLinkSupervisionTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0036)
    /// Write Link Supervision Timeout
    public static let writeLinkSupervisionTimeout = HCIOpcode(ogf: 0x03, ocf: 0x0037)
    /// Read Number Of Supported IAC
    public static let readNumberOfSupportedIAC = HCIOpcode(ogf: 0x03, ocf: 0x0038)
    /// Read Current IAC LAP
    public static let readCurrentIACLAP = HCIOpcode(ogf: 0x03, ocf: 0x0039)
    /// Write Current IAC LAP
    public static let writeCurrentIACLAP = HCIOpcode(ogf: 0x03, ocf: 0x003A)
    /// Set AFH Host Channel Classification
    public static let setAFHHostChannelClassification = HCIOpcode(ogf: 0x03, ocf: 0x003F)
    /// Read Inquiry Scan Type
    public static let readInquiryScanType = HCIOpcode(ogf: 0x03, ocf: 0x0042)
    /// Write Inquiry Scan Type
    public static let writeInquiryScanType = HCIOpcode(ogf: 0x03, ocf: 0x0043)
    /// Read Inquiry Mode
    public static let readInquiryMode = HCIOpcode(ogf: 0x03, ocf: 0x0044)
    /// Write Inquiry Mode
    public static let writeInquiryMode = HCIOpcode(ogf: 0x03, ocf: 0x0045)
    /// Read Page Scan Type
    public static let readPageScanType = HCIOpcode(ogf: 0x03, ocf: 0x0046)
    /// Write Page Scan Type
    public static let writePageScanType = HCIOpcode(ogf: 0x03, ocf: 0x0047)
    /// Read AFH Channel Assessment Mode
    public static let readAFHChannelAssessmentMode = HCIOpcode(ogf: 0x03, ocf: 0x0048)
    /// Write AFH Channel Assessment Mode
    public static let writeAFHChannelAssessmentMode = HCIOpcode(ogf: 0x03, ocf: 0x0049)
    /// Read Extended Inquiry Response
    public static let readExtendedInquiryResponse = HCIOpcode(ogf: 0x03, ocf: 0x0051)
    /// Write Extended Inquiry Response
    public static let writeExtendedInquiryResponse = HCIOpcode(ogf: 0x03, ocf: 0x0052)
    /// Refresh Encryption Key
    public static let refreshEncryptionKey = HCIOpcode(ogf: 0x03, ocf: 0x0053)
    /// Read Simple Pairing Mode
    public static let readSimplePairingMode = HCIOpcode(ogf: 0x03, ocf: 0x0055)
    /// Write Simple Pairing Mode
    public static let writeSimplePairingMode = HCIOpcode(ogf: 0x03, ocf: 0x0056)
    /// Read Local OOB Data
    public static let readLocalOOBData = HCIOpcode(ogf: 0x03, ocf: 0x0057)
    /// Read Inquiry Response Transmit Power Level
    public static let readInquiryResponseTransmitPowerLevel = HCIOpcode(ogf: 0x03, ocf: 0x0058)
    /// Write Inquiry Transmit Power Level
    public static let writeInquiryTransmitPowerLevel = HCIOpcode(ogf: 0x03, ocf: 0x0059)
    /// Read Default Erroneous Data Reporting
    public static let readDefaultErroneousDataReporting = HCIOpcode(ogf: 0x03, ocf: 0x005A)
    /// Write Default Erroneous Data Reporting
    public static let writeDefaultErroneousDataReporting = HCIOpcode(ogf: 0x03, ocf: 0x005B)
    /// Enhanced Flush
    public static let enhancedFlush = HCIOpcode(ogf: 0x03, ocf: 0x005F)
    /// Send Keypress Notification
    public static let sendKeypressNotification = HCIOpcode(ogf: 0x03, ocf: 0x0060)
    /// Set Event Mask Page 2
    public static let setEventMaskPage2 = HCIOpcode(ogf: 0x03, ocf: 0x0063)
    /// Read Flow Control Mode
    public static let readFlowControlMode = HCIOpcode(ogf: 0x03, ocf: 0x0066)
    /// Write Flow Control Mode
    public static let writeFlowControlMode = HCIOpcode(ogf: 0x03, ocf: 0x0067)
    /// Read Enhanced Transmit Power Level
    public static let readEnhancedTransmitPowerLevel = HCIOpcode(ogf: 0x03, ocf: 0x0068)
    /// Read LE Host Support
    public static let readLEHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x006C)
    /// Write LE Host Support
    public static let writeLEHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x006D)
    /// Set MWS Channel Parameters
    public static let setMWSChannelParameters = HCIOpcode(ogf: 0x03, ocf: 0x006E)
    /// Set External Frame Configuration
    public static let setExternalFrameConfiguration = HCIOpcode(ogf: 0x03, ocf: 0x006F)
    /// Set MWS Signaling
    public static let setMWSSignaling = HCIOpcode(ogf: 0x03, ocf: 0x0070)
    /// Set MWS Transport Layer
    public static let setMWSTransportLayer = HCIOpcode(ogf: 0x03, ocf: 0x0071)
    /// Set MWS Scan Frequency Table
    public static let setMWSScanFrequencyTable = HCIOpcode(ogf: 0x03, ocf: 0x0072)
    /// Set MWS PATTERN Configuration
    public static let setMWSPatternConfiguration = HCIOpcode(ogf: 0x03, ocf: 0x0073)
    /// Set Reserved LT_ADDR
    public static let setReservedLTADDR = HCIOpcode(ogf: 0x03, ocf: 0x0074)
    /// Delete Reserved LT_ADDR
    public static let deleteReservedLTADDR = HCIOpcode(ogf: 0x03, ocf: 0x0075)
    /// Set Connectionless Peripheral Broadcast Data
    public static let setConnectionlessPeripheralBroadcastData = HCIOpcode(ogf: 0x03, ocf: 0x0076)
    /// Read Synchronization Train Parameters
    public static let readSynchronizationTrainParameters = HCIOpcode(ogf: 0x03, ocf: 0x0077)
    /// Write Synchronization Train Parameters
    public static let writeSynchronizationTrainParameters = HCIOpcode(ogf: 0x03, ocf: 0x0078)
    /// Read Secure Connections Host Support
    public static let readSecureConnectionsHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x0079)
    /// Write Secure Connections Host Support
    public static let writeSecureConnectionsHostSupport = HCIOpcode(ogf: 0x03, ocf: 0x007A)
    /// Read Authenticated Payload Timeout
    public static let readAuthenticatedPayloadTimeout = HCIOpcode(ogf: 0x03, ocf: 0x007B)
    /// Write Authenticated Payload Timeout
    public static let writeAuthenticatedPayloadTimeout = HCIOpcode(ogf: 0x03, ocf: 0x007C)
    /// Read Local OOB Extended Data
    public static let readLocalOOBExtendedData = HCIOpcode(ogf: 0x03, ocf: 0x007D)
    /// Read Extended Page Timeout
    public static let readExtendedPageTimeout = HCIOpcode(ogf: 0x03, ocf: 0x007E)
    /// Write Extended Page Timeout
    public static let writeExtendedPageTimeout = HCIOpcode(ogf: 0x03, ocf: 0x007F)
    /// Read Extended Inquiry Length
    public static let readExtendedInquiryLength = HCIOpcode(ogf: 0x03, ocf: 0x0080)
    /// Write Extended Inquiry Length
    public static let writeExtendedInquiryLength = HCIOpcode(ogf: 0x03, ocf: 0x0081)
    /// Set Ecosystem Base Interval
    public static let setEcosystemBaseInterval = HCIOpcode(ogf: 0x03, ocf: 0x0082)
    /// Configure Data Path
    public static let configureDataPath = HCIOpcode(ogf: 0x03, ocf: 0x0083)
    /// Set Min Encryption Key Size
    public static let setMinEncryptionKeySize = HCIOpcode(ogf: 0x03, ocf: 0x0084)

    // MARK: OGF 0x04 — Informational parameters (§7.4)
    /// Read Local Version Information
    public static let readLocalVersionInformation = HCIOpcode(ogf: 0x04, ocf: 0x0001)
    /// Read Local Supported Commands
    public static let readLocalSupportedCommands = HCIOpcode(ogf: 0x04, ocf: 0x0002)
    /// Read Local Supported Features
    public static let readLocalSupportedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0003)
    /// Read Local Extended Features
    public static let readLocalExtendedFeatures = HCIOpcode(ogf: 0x04, ocf: 0x0004)
    /// Read Buffer Size
    public static let readBufferSize = HCIOpcode(ogf: 0x04, ocf: 0x0005)
    /// Read BD_ADDR
    public static let readBDADDR = HCIOpcode(ogf: 0x04, ocf: 0x0009)
    /// Read Data Block Size
    public static let readDataBlockSize = HCIOpcode(ogf: 0x04, ocf: 0x000A)
    /// Read Local Supported Codecs [v1]
    public static let readLocalSupportedCodecs = HCIOpcode(ogf: 0x04, ocf: 0x000B)
    /// Read Local Simple Pairing Options
    public static let readLocalSimplePairingOptions = HCIOpcode(ogf: 0x04, ocf: 0x000C)
    /// Read Local Supported Codecs [v2]
    public static let readLocalSupportedCodecsV2 = HCIOpcode(ogf: 0x04, ocf: 0x000D)
    /// Read Local Supported Codec Capabilities
    public static let readLocalSupportedCodecCapabilities = HCIOpcode(ogf: 0x04, ocf: 0x000E)
    /// Read Local Supported Controller Delay
    public static let readLocalSupportedControllerDelay = HCIOpcode(ogf: 0x04, ocf: 0x000F)

    // MARK: OGF 0x05 — Status parameters (§7.5)
    /// Read Failed Contact Counter
    public static let readFailedContactCounter = HCIOpcode(ogf: 0x05, ocf: 0x0001)
    /// Reset Failed Contact Counter
    public static let resetFailedContactCounter = HCIOpcode(ogf: 0x05, ocf: 0x0002)
    /// Read Link Quality
    public static let readLinkQuality = HCIOpcode(ogf: 0x05, ocf: 0x0003)
    /// Read RSSI
    public static let readRSSI = HCIOpcode(ogf: 0x05, ocf: 0x0005)
    /// Read AFH Channel Map
    public static let readAFHChannelMap = HCIOpcode(ogf: 0x05, ocf: 0x0006)
    /// Read Clock
    public static let readClock = HCIOpcode(ogf: 0x05, ocf: 0x0007)
    /// Read Encryption Key Size
    public static let readEncryptionKeySize = HCIOpcode(ogf: 0x05, ocf: 0x0008)
    /// Get MWS Transport Layer Configuration
    public static let getMWSTransportLayerConfiguration = HCIOpcode(ogf: 0x05, ocf: 0x000C)
    /// Set Triggered Clock Capture
    public static let setTriggeredClockCapture = HCIOpcode(ogf: 0x05, ocf: 0x000D)

    // MARK: OGF 0x06 — Testing commands (§7.6)
    /// Read Loopback Mode
    public static let readLoopbackMode = HCIOpcode(ogf: 0x06, ocf: 0x0001)
    /// Write Loopback Mode
    public static let writeLoopbackMode = HCIOpcode(ogf: 0x06, ocf: 0x0002)
    /// Enable Implementation Under Test Mode
    public static let enableImplementationUnderTestMode = HCIOpcode(ogf: 0x06, ocf: 0x0003)
    /// Write Simple Pairing Debug Mode
    public static let writeSimplePairingDebugMode = HCIOpcode(ogf: 0x06, ocf: 0x0004)
    /// Write Secure Connections Test Mode
    public static let writeSecureConnectionsTestMode = HCIOpcode(ogf: 0x06, ocf: 0x000A)

    // MARK: OGF 0x08 — LE Controller commands (§7.8)
    /// LE Set Event Mask
    public static let leSetEventMask = HCIOpcode(ogf: 0x08, ocf: 0x0001)
    /// LE Read Buffer Size [v1]
    public static let leReadBufferSize = HCIOpcode(ogf: 0x08, ocf: 0x0002)
    /// LE Read Local Supported Features
    public static let leReadLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0003)
    /// LE Set Random Address
    public static let leSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0005)
    /// LE Set Advertising Parameters
    public static let leSetAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0006)
    /// LE Read Advertising Physical Channel Tx Power
    public static let leReadAdvertisingPhysicalChannelTxPower = HCIOpcode(ogf: 0x08, ocf: 0x0007)
    /// LE Set Advertising Data
    public static let leSetAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0008)
    /// LE Set Scan Response Data
    public static let leSetScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0009)
    /// LE Set Advertising Enable
    public static let leSetAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x000A)
    /// LE Set Scan Parameters
    public static let leSetScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x000B)
    /// LE Set Scan Enable
    public static let leSetScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x000C)
    /// LE Create Connection
    public static let leCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x000D)
    /// LE Create Connection Cancel
    public static let leCreateConnectionCancel = HCIOpcode(ogf: 0x08, ocf: 0x000E)
    /// LE Read Filter Accept List Size
    public static let leReadFilterAcceptListSize = HCIOpcode(ogf: 0x08, ocf: 0x000F)
    /// LE Clear Filter Accept List
    public static let leClearFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0010)
    /// LE Add Device To Filter Accept List
    public static let leAddDeviceToFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0011)
    /// LE Remove Device From Filter Accept List
    public static let leRemoveDeviceFromFilterAcceptList = HCIOpcode(ogf: 0x08, ocf: 0x0012)
    /// LE Connection Update
    public static let leConnectionUpdate = HCIOpcode(ogf: 0x08, ocf: 0x0013)
    /// LE Set Host Channel Classification
    public static let leSetHostChannelClassification = HCIOpcode(ogf: 0x08, ocf: 0x0014)
    /// LE Read Channel Map
    public static let leReadChannelMap = HCIOpcode(ogf: 0x08, ocf: 0x0015)
    /// LE Read Remote Features
    public static let leReadRemoteFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0016)
    /// LE Encrypt
    public static let leEncrypt = HCIOpcode(ogf: 0x08, ocf: 0x0017)
    /// LE Rand
    public static let leRand = HCIOpcode(ogf: 0x08, ocf: 0x0018)
    /// LE Enable Encryption
    public static let leEnableEncryption = HCIOpcode(ogf: 0x08, ocf: 0x0019)
    /// LE Long Term Key Request Reply
    public static let leLongTermKeyRequestReply = HCIOpcode(ogf: 0x08, ocf: 0x001A)
    /// LE Long Term Key Request Negative Reply
    public static let leLongTermKeyRequestNegativeReply = HCIOpcode(ogf: 0x08, ocf: 0x001B)
    /// LE Read Supported States
    public static let leReadSupportedStates = HCIOpcode(ogf: 0x08, ocf: 0x001C)
    /// LE Receiver Test [v1]
    public static let leReceiverTest = HCIOpcode(ogf: 0x08, ocf: 0x001D)
    /// LE Transmitter Test [v1]
    public static let leTransmitterTest = HCIOpcode(ogf: 0x08, ocf: 0x001E)
    /// LE Test End
    public static let leTestEnd = HCIOpcode(ogf: 0x08, ocf: 0x001F)
    /// LE Remote Connection Parameter Request Reply
    public static let leRemoteConnectionParameterRequestReply = HCIOpcode(ogf: 0x08, ocf: 0x0020)
    /// LE Remote Connection Parameter Request Negative Reply
    public static let leRemoteConnectionParameterRequestNegativeReply = HCIOpcode(ogf: 0x08, ocf: 0x0021)
    /// LE Set Data Length
    public static let leSetDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0022)
    /// LE Read Suggested Default Data Length
    public static let leReadSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0023)
    /// LE Write Suggested Default Data Length
    public static let leWriteSuggestedDefaultDataLength = HCIOpcode(ogf: 0x08, ocf: 0x0024)
    /// LE Read Local P-256 Public Key
    public static let leReadLocalP256PublicKey = HCIOpcode(ogf: 0x08, ocf: 0x0025)
    /// LE Generate DHKey [v1]
    public static let leGenerateDHKey = HCIOpcode(ogf: 0x08, ocf: 0x0026)
    /// LE Add Device To Resolving List
    public static let leAddDeviceToResolvingList = HCIOpcode(ogf: 0x08, ocf: 0x0027)
    /// LE Remove Device From Resolving List
    public static let leRemoveDeviceFromResolvingList = HCIOpcode(ogf: 0x08, ocf: 0x0028)
    /// LE Clear Resolving List
    public static let leClearResolvingList = HCIOpcode(ogf: 0x08, ocf: 0x0029)
    /// LE Read Resolving List Size
    public static let leReadResolvingListSize = HCIOpcode(ogf: 0x08, ocf: 0x002A)
    /// LE Read Peer Resolvable Address
    public static let leReadPeerResolvableAddress = HCIOpcode(ogf: 0x08, ocf: 0x002B)
    /// LE Read Local Resolvable Address
    public static let leReadLocalResolvableAddress = HCIOpcode(ogf: 0x08, ocf: 0x002C)
    /// LE Set Address Resolution Enable
    public static let leSetAddressResolutionEnable = HCIOpcode(ogf: 0x08, ocf: 0x002D)
    /// LE Set Resolvable Private Address Timeout
    public static let leSetResolvablePrivateAddressTimeout = HCIOpcode(ogf: 0x08, ocf: 0x002E)
    /// LE Read Maximum Data Length
    public static let leReadMaximumDataLength = HCIOpcode(ogf: 0x08, ocf: 0x002F)
    /// LE Read PHY
    public static let leReadPHY = HCIOpcode(ogf: 0x08, ocf: 0x0030)
    /// LE Set Default PHY
    public static let leSetDefaultPHY = HCIOpcode(ogf: 0x08, ocf: 0x0031)
    /// LE Set PHY
    public static let leSetPHY = HCIOpcode(ogf: 0x08, ocf: 0x0032)
    /// LE Receiver Test [v2]
    public static let leReceiverTestV2 = HCIOpcode(ogf: 0x08, ocf: 0x0033)
    /// LE Transmitter Test [v2]
    public static let leTransmitterTestV2 = HCIOpcode(ogf: 0x08, ocf: 0x0034)
    /// LE Set Advertising Set Random Address
    public static let leSetAdvertisingSetRandomAddress = HCIOpcode(ogf: 0x08, ocf: 0x0035)
    /// LE Set Extended Advertising Parameters [v1]
    public static let leSetExtendedAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0036)
    /// LE Set Extended Advertising Data
    public static let leSetExtendedAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x0037)
    /// LE Set Extended Scan Response Data
    public static let leSetExtendedScanResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0038)
    /// LE Set Extended Advertising Enable
    public static let leSetExtendedAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0039)
    /// LE Read Maximum Advertising Data Length
    public static let leReadMaximumAdvertisingDataLength = HCIOpcode(ogf: 0x08, ocf: 0x003A)
    /// LE Read Number of Supported Advertising Sets
    public static let leReadNumberOfSupportedAdvertisingSets = HCIOpcode(ogf: 0x08, ocf: 0x003B)
    /// LE Remove Advertising Set
    public static let leRemoveAdvertisingSet = HCIOpcode(ogf: 0x08, ocf: 0x003C)
    /// LE Clear Advertising Sets
    public static let leClearAdvertisingSets = HCIOpcode(ogf: 0x08, ocf: 0x003D)
    /// LE Set Periodic Advertising Parameters [v1]
    public static let leSetPeriodicAdvertisingParameters = HCIOpcode(ogf: 0x08, ocf: 0x003E)
    /// LE Set Periodic Advertising Data
    public static let leSetPeriodicAdvertisingData = HCIOpcode(ogf: 0x08, ocf: 0x003F)
    /// LE Set Periodic Advertising Enable
    public static let leSetPeriodicAdvertisingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0040)
    /// LE Set Extended Scan Parameters
    public static let leSetExtendedScanParameters = HCIOpcode(ogf: 0x08, ocf: 0x0041)
    /// LE Set Extended Scan Enable
    public static let leSetExtendedScanEnable = HCIOpcode(ogf: 0x08, ocf: 0x0042)
    /// LE Extended Create Connection [v1]
    public static let leExtendedCreateConnection = HCIOpcode(ogf: 0x08, ocf: 0x0043)
    /// LE Periodic Advertising Create Sync
    public static let lePeriodicAdvertisingCreateSync = HCIOpcode(ogf: 0x08, ocf: 0x0044)
    /// LE Periodic Advertising Create Sync Cancel
    public static let lePeriodicAdvertisingCreateSyncCancel = HCIOpcode(ogf: 0x08, ocf: 0x0045)
    /// LE Periodic Advertising Terminate Sync
    public static let lePeriodicAdvertisingTerminateSync = HCIOpcode(ogf: 0x08, ocf: 0x0046)
    /// LE Add Device To Periodic Advertiser List
    public static let leAddDeviceToPeriodicAdvertiserList = HCIOpcode(ogf: 0x08, ocf: 0x0047)
    /// LE Remove Device From Periodic Advertiser List
    public static let leRemoveDeviceFromPeriodicAdvertiserList = HCIOpcode(ogf: 0x08, ocf: 0x0048)
    /// LE Clear Periodic Advertiser List
    public static let leClearPeriodicAdvertiserList = HCIOpcode(ogf: 0x08, ocf: 0x0049)
    /// LE Read Periodic Advertiser List Size
    public static let leReadPeriodicAdvertiserListSize = HCIOpcode(ogf: 0x08, ocf: 0x004A)
    /// LE Read Transmit Power
    public static let leReadTransmitPower = HCIOpcode(ogf: 0x08, ocf: 0x004B)
    /// LE Read RF Path Compensation
    public static let leReadRFPathCompensation = HCIOpcode(ogf: 0x08, ocf: 0x004C)
    /// LE Write RF Path Compensation
    public static let leWriteRFPathCompensation = HCIOpcode(ogf: 0x08, ocf: 0x004D)
    /// LE Set Privacy Mode
    public static let leSetPrivacyMode = HCIOpcode(ogf: 0x08, ocf: 0x004E)
    /// LE Receiver Test [v3]
    public static let leReceiverTestV3 = HCIOpcode(ogf: 0x08, ocf: 0x004F)
    /// LE Transmitter Test [v3]
    public static let leTransmitterTestV3 = HCIOpcode(ogf: 0x08, ocf: 0x0050)
    /// LE Set Connectionless CTE Transmit Parameters
    public static let leSetConnectionlessCTETransmitParameters = HCIOpcode(ogf: 0x08, ocf: 0x0051)
    /// LE Set Connectionless CTE Transmit Enable
    public static let leSetConnectionlessCTETransmitEnable = HCIOpcode(ogf: 0x08, ocf: 0x0052)
    /// LE Set Connectionless IQ Sampling Enable
    public static let leSetConnectionlessIQSamplingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0053)
    /// LE Set Connection CTE Receive Parameters
    public static let leSetConnectionCTEReceiveParameters = HCIOpcode(ogf: 0x08, ocf: 0x0054)
    /// LE Set Connection CTE Transmit Parameters
    public static let leSetConnectionCTETransmitParameters = HCIOpcode(ogf: 0x08, ocf: 0x0055)
    /// LE Connection CTE Request Enable
    public static let leConnectionCTERequestEnable = HCIOpcode(ogf: 0x08, ocf: 0x0056)
    /// LE Connection CTE Response Enable
    public static let leConnectionCTEResponseEnable = HCIOpcode(ogf: 0x08, ocf: 0x0057)
    /// LE Read Antenna Information
    public static let leReadAntennaInformation = HCIOpcode(ogf: 0x08, ocf: 0x0058)
    /// LE Set Periodic Advertising Receive Enable
    public static let leSetPeriodicAdvertisingReceiveEnable = HCIOpcode(ogf: 0x08, ocf: 0x0059)
    /// LE Periodic Advertising Sync Transfer
    public static let lePeriodicAdvertisingSyncTransfer = HCIOpcode(ogf: 0x08, ocf: 0x005A)
    /// LE Periodic Advertising Set Info Transfer
    public static let lePeriodicAdvertisingSetInfoTransfer = HCIOpcode(ogf: 0x08, ocf: 0x005B)
    /// LE Set Periodic Advertising Sync Transfer Parameters
    public static let leSetPeriodicAdvertisingSyncTransferParameters = HCIOpcode(ogf: 0x08, ocf: 0x005C)
    /// LE Set Default Periodic Advertising Sync Transfer Parameters
    public static let leSetDefaultPeriodicAdvertisingSyncTransferParameters = HCIOpcode(ogf: 0x08, ocf: 0x005D)
    /// LE Generate DHKey [v2]
    public static let leGenerateDHKeyV2 = HCIOpcode(ogf: 0x08, ocf: 0x005E)
    /// LE Modify Sleep Clock Accuracy
    public static let leModifySleepClockAccuracy = HCIOpcode(ogf: 0x08, ocf: 0x005F)
    /// LE Read Buffer Size [v2]
    public static let leReadBufferSizeV2 = HCIOpcode(ogf: 0x08, ocf: 0x0060)
    /// LE Read ISO TX Sync
    public static let leReadISOTXSync = HCIOpcode(ogf: 0x08, ocf: 0x0061)
    /// LE Set CIG Parameters
    public static let leSetCIGParameters = HCIOpcode(ogf: 0x08, ocf: 0x0062)
    /// LE Set CIG Parameters Test
    public static let leSetCIGParametersTest = HCIOpcode(ogf: 0x08, ocf: 0x0063)
    /// LE Create CIS
    public static let leCreateCIS = HCIOpcode(ogf: 0x08, ocf: 0x0064)
    /// LE Remove CIG
    public static let leRemoveCIG = HCIOpcode(ogf: 0x08, ocf: 0x0065)
    /// LE Accept CIS Request
    public static let leAcceptCISRequest = HCIOpcode(ogf: 0x08, ocf: 0x0066)
    /// LE Reject CIS Request
    public static let leRejectCISRequest = HCIOpcode(ogf: 0x08, ocf: 0x0067)
    /// LE Create BIG
    public static let leCreateBIG = HCIOpcode(ogf: 0x08, ocf: 0x0068)
    /// LE Create BIG Test
    public static let leCreateBIGTest = HCIOpcode(ogf: 0x08, ocf: 0x0069)
    /// LE Terminate BIG
    public static let leTerminateBIG = HCIOpcode(ogf: 0x08, ocf: 0x006A)
    /// LE BIG Create Sync
    public static let leBIGCreateSync = HCIOpcode(ogf: 0x08, ocf: 0x006B)
    /// LE BIG Terminate Sync
    public static let leBIGTerminateSync = HCIOpcode(ogf: 0x08, ocf: 0x006C)
    /// LE Request Peer SCA
    public static let leRequestPeerSCA = HCIOpcode(ogf: 0x08, ocf: 0x006D)
    /// LE Setup ISO Data Path
    public static let leSetupISODataPath = HCIOpcode(ogf: 0x08, ocf: 0x006E)
    /// LE Remove ISO Data Path
    public static let leRemoveISODataPath = HCIOpcode(ogf: 0x08, ocf: 0x006F)
    /// LE ISO Transmit Test
    public static let leISOTransmitTest = HCIOpcode(ogf: 0x08, ocf: 0x0070)
    /// LE ISO Receive Test
    public static let leISOReceiveTest = HCIOpcode(ogf: 0x08, ocf: 0x0071)
    /// LE ISO Read Test Counters
    public static let leISOReadTestCounters = HCIOpcode(ogf: 0x08, ocf: 0x0072)
    /// LE ISO Test End
    public static let leISOTestEnd = HCIOpcode(ogf: 0x08, ocf: 0x0073)
    /// LE Set Host Feature
    public static let leSetHostFeature = HCIOpcode(ogf: 0x08, ocf: 0x0074)
    /// LE Read ISO Link Quality
    public static let leReadISOLinkQuality = HCIOpcode(ogf: 0x08, ocf: 0x0075)
    /// LE Enhanced Read Transmit Power Level
    public static let leEnhancedReadTransmitPowerLevel = HCIOpcode(ogf: 0x08, ocf: 0x0076)
    /// LE Read Remote Transmit Power Level
    public static let leReadRemoteTransmitPowerLevel = HCIOpcode(ogf: 0x08, ocf: 0x0077)
    /// LE Set Path Loss Reporting Parameters
    public static let leSetPathLossReportingParameters = HCIOpcode(ogf: 0x08, ocf: 0x0078)
    /// LE Set Path Loss Reporting Enable
    public static let leSetPathLossReportingEnable = HCIOpcode(ogf: 0x08, ocf: 0x0079)
    /// LE Set Transmit Power Reporting Enable
    public static let leSetTransmitPowerReportingEnable = HCIOpcode(ogf: 0x08, ocf: 0x007A)
    /// LE Transmitter Test [v4]
    public static let leTransmitterTestV4 = HCIOpcode(ogf: 0x08, ocf: 0x007B)
    /// LE Set Data Related Address Changes
    public static let leSetDataRelatedAddressChanges = HCIOpcode(ogf: 0x08, ocf: 0x007C)
    /// LE Set Default Subrate
    public static let leSetDefaultSubrate = HCIOpcode(ogf: 0x08, ocf: 0x007D)
    /// LE Subrate Request
    public static let leSubrateRequest = HCIOpcode(ogf: 0x08, ocf: 0x007E)
    /// LE Set Extended Advertising Parameters [v2]
    public static let leSetExtendedAdvertisingParametersV2 = HCIOpcode(ogf: 0x08, ocf: 0x007F)
    /// LE Set Decision Data
    public static let leSetDecisionData = HCIOpcode(ogf: 0x08, ocf: 0x0080)
    /// LE Set Decision Instructions
    public static let leSetDecisionInstructions = HCIOpcode(ogf: 0x08, ocf: 0x0081)
    /// LE Set Periodic Advertising Subevent Data
    public static let leSetPeriodicAdvertisingSubeventData = HCIOpcode(ogf: 0x08, ocf: 0x0082)
    /// LE Set Periodic Advertising Response Data
    public static let leSetPeriodicAdvertisingResponseData = HCIOpcode(ogf: 0x08, ocf: 0x0083)
    /// LE Set Periodic Sync Subevent
    public static let leSetPeriodicSyncSubevent = HCIOpcode(ogf: 0x08, ocf: 0x0084)
    /// LE Extended Create Connection [v2]
    public static let leExtendedCreateConnectionV2 = HCIOpcode(ogf: 0x08, ocf: 0x0085)
    /// LE Set Periodic Advertising Parameters [v2]
    public static let leSetPeriodicAdvertisingParametersV2 = HCIOpcode(ogf: 0x08, ocf: 0x0086)
    /// LE Read All Local Supported Features
    public static let leReadAllLocalSupportedFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0087)
    /// LE Read All Remote Features
    public static let leReadAllRemoteFeatures = HCIOpcode(ogf: 0x08, ocf: 0x0088)
    /// LE CS Read Local Supported Capabilities
    public static let leCSReadLocalSupportedCapabilities = HCIOpcode(ogf: 0x08, ocf: 0x0089)
    /// LE CS Read Remote Supported Capabilities
    public static let leCSReadRemoteSupportedCapabilities = HCIOpcode(ogf: 0x08, ocf: 0x008A)
    /// LE CS Write Cached Remote Supported Capabilities
    public static let leCSWriteCachedRemoteSupportedCapabilities = HCIOpcode(ogf: 0x08, ocf: 0x008B)
    /// LE CS Security Enable
    public static let leCSSecurityEnable = HCIOpcode(ogf: 0x08, ocf: 0x008C)
    /// LE CS Set Default Settings
    public static let leCSSetDefaultSettings = HCIOpcode(ogf: 0x08, ocf: 0x008D)
    /// LE CS Read Remote FAE Table
    public static let leCSReadRemoteFAETable = HCIOpcode(ogf: 0x08, ocf: 0x008E)
    /// LE CS Write Cached Remote FAE Table
    public static let leCSWriteCachedRemoteFAETable = HCIOpcode(ogf: 0x08, ocf: 0x008F)
    /// LE CS Create Config
    public static let leCSCreateConfig = HCIOpcode(ogf: 0x08, ocf: 0x0090)
    /// LE CS Remove Config
    public static let leCSRemoveConfig = HCIOpcode(ogf: 0x08, ocf: 0x0091)
    /// LE CS Set Channel Classification
    public static let leCSSetChannelClassification = HCIOpcode(ogf: 0x08, ocf: 0x0092)
    /// LE CS Set Procedure Parameters
    public static let leCSSetProcedureParameters = HCIOpcode(ogf: 0x08, ocf: 0x0093)
    /// LE CS Procedure Enable
    public static let leCSProcedureEnable = HCIOpcode(ogf: 0x08, ocf: 0x0094)
    /// LE CS Test
    public static let leCSTest = HCIOpcode(ogf: 0x08, ocf: 0x0095)
    /// LE CS Test End
    public static let leCSTestEnd = HCIOpcode(ogf: 0x08, ocf: 0x0096)
}

extension HCIOpcode {
    /// No Operation: a Command Complete or Command Status with this opcode only hands the host
    /// command credits (Vol 4, Part E, §7.7.14).
    public static let nop = HCIOpcode(rawValue: 0x0000)

    /// Vendor-specific commands all live in OGF 0x3F.
    public static let vendorOGF: UInt8 = 0x3F
    public var isVendorSpecific: Bool { ogf == HCIOpcode.vendorOGF }

    /// The spec name when this opcode is one the table knows.
    public var specName: String? {
        switch rawValue {
        case 0x0000: return "NOP"
        case 0x0401: return "Inquiry"
        case 0x0402: return "Inquiry Cancel"
        case 0x0403: return "Periodic Inquiry Mode"
        case 0x0404: return "Exit Periodic Inquiry Mode"
        case 0x0405: return "Create Connection"
        case 0x0406: return "Disconnect"
        case 0x0408: return "Create Connection Cancel"
        case 0x0409: return "Accept Connection Request"
        case 0x040A: return "Reject Connection Request"
        case 0x040B: return "Link Key Request Reply"
        case 0x040C: return "Link Key Request Negative Reply"
        case 0x040D: return "PIN Code Request Reply"
        case 0x040E: return "PIN Code Request Negative Reply"
        case 0x040F: return "Change Connection Packet Type"
        case 0x0411: return "Authentication Requested"
        case 0x0413: return "Set Connection Encryption"
        case 0x0415: return "Change Connection Link Key"
        case 0x0417: return "Link Key Selection"
        case 0x0419: return "Remote Name Request"
        case 0x041A: return "Remote Name Request Cancel"
        case 0x041B: return "Read Remote Supported Features"
        case 0x041C: return "Read Remote Extended Features"
        case 0x041D: return "Read Remote Version Information"
        case 0x041F: return "Read Clock Offset"
        case 0x0420: return "Read LMP Handle"
        case 0x0428: return "Setup Synchronous Connection"
        case 0x0429: return "Accept Synchronous Connection Request"
        case 0x042A: return "Reject Synchronous Connection Request"
        case 0x042B: return "IO Capability Request Reply"
        case 0x042C: return "User Confirmation Request Reply"
        case 0x042D: return "User Confirmation Request Negative Reply"
        case 0x042E: return "User Passkey Request Reply"
        case 0x042F: return "User Passkey Request Negative Reply"
        case 0x0430: return "Remote OOB Data Request Reply"
        case 0x0433: return "Remote OOB Data Request Negative Reply"
        case 0x0434: return "IO Capability Request Negative Reply"
        case 0x043D: return "Enhanced Setup Synchronous Connection"
        case 0x043E: return "Enhanced Accept Synchronous Connection Request"
        case 0x043F: return "Truncated Page"
        case 0x0440: return "Truncated Page Cancel"
        case 0x0441: return "Set Connectionless Peripheral Broadcast"
        case 0x0442: return "Set Connectionless Peripheral Broadcast Receive"
        case 0x0443: return "Start Synchronization Train"
        case 0x0444: return "Receive Synchronization Train"
        case 0x0445: return "Remote OOB Extended Data Request Reply"
        case 0x0801: return "Hold Mode"
        case 0x0803: return "Sniff Mode"
        case 0x0804: return "Exit Sniff Mode"
        case 0x0807: return "QoS Setup"
        case 0x0809: return "Role Discovery"
        case 0x080B: return "Switch Role"
        case 0x080C: return "Read Link Policy Settings"
        case 0x080D: return "Write Link Policy Settings"
        case 0x080E: return "Read Default Link Policy Settings"
        case 0x080F: return "Write Default Link Policy Settings"
        case 0x0810: return "Flow Specification"
        case 0x0811: return "Sniff Subrating"
        case 0x0C01: return "Set Event Mask"
        case 0x0C03: return "Reset"
        case 0x0C05: return "Set Event Filter"
        case 0x0C08: return "Flush"
        case 0x0C09: return "Read PIN Type"
        case 0x0C0A: return "Write PIN Type"
        case 0x0C0D: return "Read Stored Link Key"
        case 0x0C11: return "Write Stored Link Key"
        case 0x0C12: return "Delete Stored Link Key"
        case 0x0C13: return "Write Local Name"
        case 0x0C14: return "Read Local Name"
        case 0x0C15: return "Read Connection Accept Timeout"
        case 0x0C16: return "Write Connection Accept Timeout"
        case 0x0C17: return "Read Page Timeout"
        case 0x0C18: return "Write Page Timeout"
        case 0x0C19: return "Read Scan Enable"
        case 0x0C1A: return "Write Scan Enable"
        case 0x0C1B: return "Read Page Scan Activity"
        case 0x0C1C: return "Write Page Scan Activity"
        case 0x0C1D: return "Read Inquiry Scan Activity"
        case 0x0C1E: return "Write Inquiry Scan Activity"
        case 0x0C1F: return "Read Authentication Enable"
        case 0x0C20: return "Write Authentication Enable"
        case 0x0C23: return "Read Class of Device"
        case 0x0C24: return "Write Class of Device"
        case 0x0C25: return "Read Voice Setting"
        case 0x0C26: return "Write Voice Setting"
        case 0x0C27: return "Read Automatic Flush Timeout"
        case 0x0C28: return "Write Automatic Flush Timeout"
        case 0x0C29: return "Read Num Broadcast Retransmissions"
        case 0x0C2A: return "Write Num Broadcast Retransmissions"
        case 0x0C2B: return "Read Hold Mode Activity"
        case 0x0C2C: return "Write Hold Mode Activity"
        case 0x0C2D: return "Read Transmit Power Level"
        case 0x0C2E: return "Read Synchronous Flow Control Enable"
        case 0x0C2F: return "Write Synchronous Flow Control Enable"
        case 0x0C31: return "Set Controller To Host Flow Control"
        case 0x0C33: return "Host Buffer Size"
        case 0x0C35: return "Host Number Of Completed Packets"
        case 0x0C36: return "Read Link Supervision Timeout"
        case 0x0C37: return "Write Link Supervision Timeout"
        case 0x0C38: return "Read Number Of Supported IAC"
        case 0x0C39: return "Read Current IAC LAP"
        case 0x0C3A: return "Write Current IAC LAP"
        case 0x0C3F: return "Set AFH Host Channel Classification"
        case 0x0C42: return "Read Inquiry Scan Type"
        case 0x0C43: return "Write Inquiry Scan Type"
        case 0x0C44: return "Read Inquiry Mode"
        case 0x0C45: return "Write Inquiry Mode"
        case 0x0C46: return "Read Page Scan Type"
        case 0x0C47: return "Write Page Scan Type"
        case 0x0C48: return "Read AFH Channel Assessment Mode"
        case 0x0C49: return "Write AFH Channel Assessment Mode"
        case 0x0C51: return "Read Extended Inquiry Response"
        case 0x0C52: return "Write Extended Inquiry Response"
        case 0x0C53: return "Refresh Encryption Key"
        case 0x0C55: return "Read Simple Pairing Mode"
        case 0x0C56: return "Write Simple Pairing Mode"
        case 0x0C57: return "Read Local OOB Data"
        case 0x0C58: return "Read Inquiry Response Transmit Power Level"
        case 0x0C59: return "Write Inquiry Transmit Power Level"
        case 0x0C5A: return "Read Default Erroneous Data Reporting"
        case 0x0C5B: return "Write Default Erroneous Data Reporting"
        case 0x0C5F: return "Enhanced Flush"
        case 0x0C60: return "Send Keypress Notification"
        case 0x0C63: return "Set Event Mask Page 2"
        case 0x0C66: return "Read Flow Control Mode"
        case 0x0C67: return "Write Flow Control Mode"
        case 0x0C68: return "Read Enhanced Transmit Power Level"
        case 0x0C6C: return "Read LE Host Support"
        case 0x0C6D: return "Write LE Host Support"
        case 0x0C6E: return "Set MWS Channel Parameters"
        case 0x0C6F: return "Set External Frame Configuration"
        case 0x0C70: return "Set MWS Signaling"
        case 0x0C71: return "Set MWS Transport Layer"
        case 0x0C72: return "Set MWS Scan Frequency Table"
        case 0x0C73: return "Set MWS PATTERN Configuration"
        case 0x0C74: return "Set Reserved LT_ADDR"
        case 0x0C75: return "Delete Reserved LT_ADDR"
        case 0x0C76: return "Set Connectionless Peripheral Broadcast Data"
        case 0x0C77: return "Read Synchronization Train Parameters"
        case 0x0C78: return "Write Synchronization Train Parameters"
        case 0x0C79: return "Read Secure Connections Host Support"
        case 0x0C7A: return "Write Secure Connections Host Support"
        case 0x0C7B: return "Read Authenticated Payload Timeout"
        case 0x0C7C: return "Write Authenticated Payload Timeout"
        case 0x0C7D: return "Read Local OOB Extended Data"
        case 0x0C7E: return "Read Extended Page Timeout"
        case 0x0C7F: return "Write Extended Page Timeout"
        case 0x0C80: return "Read Extended Inquiry Length"
        case 0x0C81: return "Write Extended Inquiry Length"
        case 0x0C82: return "Set Ecosystem Base Interval"
        case 0x0C83: return "Configure Data Path"
        case 0x0C84: return "Set Min Encryption Key Size"
        case 0x1001: return "Read Local Version Information"
        case 0x1002: return "Read Local Supported Commands"
        case 0x1003: return "Read Local Supported Features"
        case 0x1004: return "Read Local Extended Features"
        case 0x1005: return "Read Buffer Size"
        case 0x1009: return "Read BD_ADDR"
        case 0x100A: return "Read Data Block Size"
        case 0x100B: return "Read Local Supported Codecs [v1]"
        case 0x100C: return "Read Local Simple Pairing Options"
        case 0x100D: return "Read Local Supported Codecs [v2]"
        case 0x100E: return "Read Local Supported Codec Capabilities"
        case 0x100F: return "Read Local Supported Controller Delay"
        case 0x1401: return "Read Failed Contact Counter"
        case 0x1402: return "Reset Failed Contact Counter"
        case 0x1403: return "Read Link Quality"
        case 0x1405: return "Read RSSI"
        case 0x1406: return "Read AFH Channel Map"
        case 0x1407: return "Read Clock"
        case 0x1408: return "Read Encryption Key Size"
        case 0x140C: return "Get MWS Transport Layer Configuration"
        case 0x140D: return "Set Triggered Clock Capture"
        case 0x1801: return "Read Loopback Mode"
        case 0x1802: return "Write Loopback Mode"
        case 0x1803: return "Enable Implementation Under Test Mode"
        case 0x1804: return "Write Simple Pairing Debug Mode"
        case 0x180A: return "Write Secure Connections Test Mode"
        case 0x2001: return "LE Set Event Mask"
        case 0x2002: return "LE Read Buffer Size [v1]"
        case 0x2003: return "LE Read Local Supported Features"
        case 0x2005: return "LE Set Random Address"
        case 0x2006: return "LE Set Advertising Parameters"
        case 0x2007: return "LE Read Advertising Physical Channel Tx Power"
        case 0x2008: return "LE Set Advertising Data"
        case 0x2009: return "LE Set Scan Response Data"
        case 0x200A: return "LE Set Advertising Enable"
        case 0x200B: return "LE Set Scan Parameters"
        case 0x200C: return "LE Set Scan Enable"
        case 0x200D: return "LE Create Connection"
        case 0x200E: return "LE Create Connection Cancel"
        case 0x200F: return "LE Read Filter Accept List Size"
        case 0x2010: return "LE Clear Filter Accept List"
        case 0x2011: return "LE Add Device To Filter Accept List"
        case 0x2012: return "LE Remove Device From Filter Accept List"
        case 0x2013: return "LE Connection Update"
        case 0x2014: return "LE Set Host Channel Classification"
        case 0x2015: return "LE Read Channel Map"
        case 0x2016: return "LE Read Remote Features"
        case 0x2017: return "LE Encrypt"
        case 0x2018: return "LE Rand"
        case 0x2019: return "LE Enable Encryption"
        case 0x201A: return "LE Long Term Key Request Reply"
        case 0x201B: return "LE Long Term Key Request Negative Reply"
        case 0x201C: return "LE Read Supported States"
        case 0x201D: return "LE Receiver Test [v1]"
        case 0x201E: return "LE Transmitter Test [v1]"
        case 0x201F: return "LE Test End"
        case 0x2020: return "LE Remote Connection Parameter Request Reply"
        case 0x2021: return "LE Remote Connection Parameter Request Negative Reply"
        case 0x2022: return "LE Set Data Length"
        case 0x2023: return "LE Read Suggested Default Data Length"
        case 0x2024: return "LE Write Suggested Default Data Length"
        case 0x2025: return "LE Read Local P-256 Public Key"
        case 0x2026: return "LE Generate DHKey [v1]"
        case 0x2027: return "LE Add Device To Resolving List"
        case 0x2028: return "LE Remove Device From Resolving List"
        case 0x2029: return "LE Clear Resolving List"
        case 0x202A: return "LE Read Resolving List Size"
        case 0x202B: return "LE Read Peer Resolvable Address"
        case 0x202C: return "LE Read Local Resolvable Address"
        case 0x202D: return "LE Set Address Resolution Enable"
        case 0x202E: return "LE Set Resolvable Private Address Timeout"
        case 0x202F: return "LE Read Maximum Data Length"
        case 0x2030: return "LE Read PHY"
        case 0x2031: return "LE Set Default PHY"
        case 0x2032: return "LE Set PHY"
        case 0x2033: return "LE Receiver Test [v2]"
        case 0x2034: return "LE Transmitter Test [v2]"
        case 0x2035: return "LE Set Advertising Set Random Address"
        case 0x2036: return "LE Set Extended Advertising Parameters [v1]"
        case 0x2037: return "LE Set Extended Advertising Data"
        case 0x2038: return "LE Set Extended Scan Response Data"
        case 0x2039: return "LE Set Extended Advertising Enable"
        case 0x203A: return "LE Read Maximum Advertising Data Length"
        case 0x203B: return "LE Read Number of Supported Advertising Sets"
        case 0x203C: return "LE Remove Advertising Set"
        case 0x203D: return "LE Clear Advertising Sets"
        case 0x203E: return "LE Set Periodic Advertising Parameters [v1]"
        case 0x203F: return "LE Set Periodic Advertising Data"
        case 0x2040: return "LE Set Periodic Advertising Enable"
        case 0x2041: return "LE Set Extended Scan Parameters"
        case 0x2042: return "LE Set Extended Scan Enable"
        case 0x2043: return "LE Extended Create Connection [v1]"
        case 0x2044: return "LE Periodic Advertising Create Sync"
        case 0x2045: return "LE Periodic Advertising Create Sync Cancel"
        case 0x2046: return "LE Periodic Advertising Terminate Sync"
        case 0x2047: return "LE Add Device To Periodic Advertiser List"
        case 0x2048: return "LE Remove Device From Periodic Advertiser List"
        case 0x2049: return "LE Clear Periodic Advertiser List"
        case 0x204A: return "LE Read Periodic Advertiser List Size"
        case 0x204B: return "LE Read Transmit Power"
        case 0x204C: return "LE Read RF Path Compensation"
        case 0x204D: return "LE Write RF Path Compensation"
        case 0x204E: return "LE Set Privacy Mode"
        case 0x204F: return "LE Receiver Test [v3]"
        case 0x2050: return "LE Transmitter Test [v3]"
        case 0x2051: return "LE Set Connectionless CTE Transmit Parameters"
        case 0x2052: return "LE Set Connectionless CTE Transmit Enable"
        case 0x2053: return "LE Set Connectionless IQ Sampling Enable"
        case 0x2054: return "LE Set Connection CTE Receive Parameters"
        case 0x2055: return "LE Set Connection CTE Transmit Parameters"
        case 0x2056: return "LE Connection CTE Request Enable"
        case 0x2057: return "LE Connection CTE Response Enable"
        case 0x2058: return "LE Read Antenna Information"
        case 0x2059: return "LE Set Periodic Advertising Receive Enable"
        case 0x205A: return "LE Periodic Advertising Sync Transfer"
        case 0x205B: return "LE Periodic Advertising Set Info Transfer"
        case 0x205C: return "LE Set Periodic Advertising Sync Transfer Parameters"
        case 0x205D: return "LE Set Default Periodic Advertising Sync Transfer Parameters"
        case 0x205E: return "LE Generate DHKey [v2]"
        case 0x205F: return "LE Modify Sleep Clock Accuracy"
        case 0x2060: return "LE Read Buffer Size [v2]"
        case 0x2061: return "LE Read ISO TX Sync"
        case 0x2062: return "LE Set CIG Parameters"
        case 0x2063: return "LE Set CIG Parameters Test"
        case 0x2064: return "LE Create CIS"
        case 0x2065: return "LE Remove CIG"
        case 0x2066: return "LE Accept CIS Request"
        case 0x2067: return "LE Reject CIS Request"
        case 0x2068: return "LE Create BIG"
        case 0x2069: return "LE Create BIG Test"
        case 0x206A: return "LE Terminate BIG"
        case 0x206B: return "LE BIG Create Sync"
        case 0x206C: return "LE BIG Terminate Sync"
        case 0x206D: return "LE Request Peer SCA"
        case 0x206E: return "LE Setup ISO Data Path"
        case 0x206F: return "LE Remove ISO Data Path"
        case 0x2070: return "LE ISO Transmit Test"
        case 0x2071: return "LE ISO Receive Test"
        case 0x2072: return "LE ISO Read Test Counters"
        case 0x2073: return "LE ISO Test End"
        case 0x2074: return "LE Set Host Feature"
        case 0x2075: return "LE Read ISO Link Quality"
        case 0x2076: return "LE Enhanced Read Transmit Power Level"
        case 0x2077: return "LE Read Remote Transmit Power Level"
        case 0x2078: return "LE Set Path Loss Reporting Parameters"
        case 0x2079: return "LE Set Path Loss Reporting Enable"
        case 0x207A: return "LE Set Transmit Power Reporting Enable"
        case 0x207B: return "LE Transmitter Test [v4]"
        case 0x207C: return "LE Set Data Related Address Changes"
        case 0x207D: return "LE Set Default Subrate"
        case 0x207E: return "LE Subrate Request"
        case 0x207F: return "LE Set Extended Advertising Parameters [v2]"
        case 0x2080: return "LE Set Decision Data"
        case 0x2081: return "LE Set Decision Instructions"
        case 0x2082: return "LE Set Periodic Advertising Subevent Data"
        case 0x2083: return "LE Set Periodic Advertising Response Data"
        case 0x2084: return "LE Set Periodic Sync Subevent"
        case 0x2085: return "LE Extended Create Connection [v2]"
        case 0x2086: return "LE Set Periodic Advertising Parameters [v2]"
        case 0x2087: return "LE Read All Local Supported Features"
        case 0x2088: return "LE Read All Remote Features"
        case 0x2089: return "LE CS Read Local Supported Capabilities"
        case 0x208A: return "LE CS Read Remote Supported Capabilities"
        case 0x208B: return "LE CS Write Cached Remote Supported Capabilities"
        case 0x208C: return "LE CS Security Enable"
        case 0x208D: return "LE CS Set Default Settings"
        case 0x208E: return "LE CS Read Remote FAE Table"
        case 0x208F: return "LE CS Write Cached Remote FAE Table"
        case 0x2090: return "LE CS Create Config"
        case 0x2091: return "LE CS Remove Config"
        case 0x2092: return "LE CS Set Channel Classification"
        case 0x2093: return "LE CS Set Procedure Parameters"
        case 0x2094: return "LE CS Procedure Enable"
        case 0x2095: return "LE CS Test"
        case 0x2096: return "LE CS Test End"
        default: return nil
        }
    }

    /// The spec name ("LE Set Scan Parameters"), or `Vendor 0xFC01` for OGF 0x3F, or
    /// `Unknown 0x2099` for an opcode newer than this table.
    public var name: String {
        if let n = specName { return n }
        return (isVendorSpecific ? "Vendor " : "Unknown ") + Hex.number(rawValue, width: 4)
    }
}

extension HCIOpcode: CustomStringConvertible {
    /// `LE Set Scan Parameters (0x08|0x000B)`, the OGF|OCF form btmon prints.
    public var description: String {
        name + " (" + Hex.number(ogf, width: 2) + "|" + Hex.number(ocf, width: 4) + ")"
    }
}

extension TextBuffer {
    /// The opcode's `description`, `LE Set Scan Parameters (0x08|0x000B)`: every Command
    /// Complete shows it twice.
    public mutating func append(_ opcode: HCIOpcode) {
        append(opcode.name)
        append(" (")
        appendHexNumber(opcode.ogf, width: 2)
        append(byte: 0x7C)
        appendHexNumber(opcode.ocf, width: 4)
        append(byte: 0x29)
    }
}
