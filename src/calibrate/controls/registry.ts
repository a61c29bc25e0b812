/**
 * The control classes `skillc calibrate` builds, in report order: the four negative classes of
 * SPEC §7, then the positives. A new class is added here and nowhere else.
 */
import type { ControlClass } from './control.js';
import { crossDomain } from './cross-domain.js';
import { sameDomainDistinct } from './same-domain-distinct.js';
import { nearMiss } from './near-miss.js';
import { swappedContract } from './swapped-contract.js';
import { recurring } from './recurring.js';

export const CONTROL_CLASSES: readonly ControlClass[] = [crossDomain, sameDomainDistinct, nearMiss, swappedContract, recurring];
