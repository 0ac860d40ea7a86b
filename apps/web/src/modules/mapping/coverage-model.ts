// The computation lives in the contract: the server's pre-live checklist counts the same gaps.
export {
  coverageLists,
  coverageOf,
  seatList,
  type CoverageCell,
  type CoverageLine,
  type SectionCoverage,
} from '@stadiumcam/contract';
